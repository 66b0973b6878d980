# energy_audit_warnings(target): the warnings every target of the project builds with.
function(energy_audit_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion
    -Wno-missing-field-initializers)  # designated initializers leave defaults on purpose
endfunction()
