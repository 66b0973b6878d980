#pragma once
/// \file
/// The library's exceptions: a caller error (InvalidArgument) and a run-time failure (Error).

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

}  // namespace energy_audit
