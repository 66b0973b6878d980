// The drop-in audit for existing CVODE programs (being written).
