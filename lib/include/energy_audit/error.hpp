#pragma once
/// \file
/// The library's exceptions: a caller error (InvalidArgument) and a run-time failure (Error).

#include <sstream>
#include <stdexcept>
#include <string>

namespace energy_audit {

/// A run-time failure of a computation (singular mass matrix, solver failure, ...).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A caller error: an argument the library cannot accept. The message names it.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// A number as messages print it: 6 significant digits, no trailing zeros ("0.4999", "1e-07").
inline std::string to_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

}  // namespace energy_audit
