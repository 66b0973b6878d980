#pragma once
/// \file
/// Owners of SUNDIALS handles: move-only, freed by their destructors. No *Free or N_VDestroy
/// appears elsewhere in the project. The context is SUNDIALS' own RAII sundials::Context.

#include <memory>
#include <type_traits>

#include <cvodes/cvodes.h>
#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.hpp>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

namespace energy_audit::sun {

struct NVectorDeleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
  void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct LinearSolverDeleter {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct NonlinearSolverDeleter {
  void operator()(SUNNonlinearSolver s) const { SUNNonlinSolFree(s); }
};
struct CvodeMemoryDeleter {
  void operator()(void* memory) const { CVodeFree(&memory); }
};

struct IdaMemoryDeleter {
  void operator()(void* memory) const { IDAFree(&memory); }
};

using NVector = std::unique_ptr<std::remove_pointer_t<N_Vector>, NVectorDeleter>;
using SunMatrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixDeleter>;
using SunLinearSolver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverDeleter>;
using SunNonlinearSolver = std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinearSolverDeleter>;
using CvodeMemory = std::unique_ptr<void, CvodeMemoryDeleter>;
using IdaMemory = std::unique_ptr<void, IdaMemoryDeleter>;

/// A serial N_Vector of `length` entries; throws energy_audit::Error if SUNDIALS cannot make one.
NVector make_serial_vector(sunindextype length, SUNContext context);

}  // namespace energy_audit::sun
