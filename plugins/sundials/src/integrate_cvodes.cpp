#include "energy_audit/sundials/integrate_cvodes.hpp"

#include <cvodes/cvodes_ls.h>

#include "energy_audit/sundials/adaptive_interval.hpp"

namespace energy_audit::sun::detail {

SolverCounters read_counters(void* memory, const CvodesOptions& options, bool quadrature) {
  SolverCounters c;
  CVodeGetNumSteps(memory, &c.steps);
  CVodeGetNumRhsEvals(memory, &c.rhs_evaluations);
  CVodeGetNumNonlinSolvIters(memory, &c.nonlinear_iterations);
  CVodeGetNumNonlinSolvConvFails(memory, &c.nonlinear_convergence_failures);
  CVodeGetNumErrTestFails(memory, &c.error_test_failures);
  if (options.iteration == NonlinearIteration::Newton) {
    CVodeGetNumJacEvals(memory, &c.jacobian_evaluations);
    CVodeGetNumLinRhsEvals(memory, &c.jacobian_rhs_evaluations);
  }
  if (quadrature) CVodeGetQuadNumRhsEvals(memory, &c.quadrature_rhs_evaluations);
  return c;
}

void configure(CvodesSolver& solver, const ConstVectorRef& y0, double t0, double t1, CVRhsFn rhs,
               CVQuadRhsFn energy_flow, CallbackData& data, const CvodesOptions& options) {
  if (!(options.rtol > 0) || !(options.atol > 0)) throw InvalidArgument("rtol and atol must be > 0");
  if (!(options.max_steps > 0)) throw InvalidArgument("max_steps must be > 0");
  if (const std::string problem = adaptive_interval_problem(t0, t1); !problem.empty()) {
    throw InvalidArgument(problem);
  }
  SUNContext context = solver.context;
  const auto length = static_cast<sunindextype>(y0.size());
  solver.y = make_serial_vector(length, context);
  view(solver.y.get()) = y0;

  solver.memory.reset(CVodeCreate(options.method == Multistep::Bdf ? CV_BDF : CV_ADAMS, context));
  if (!solver.memory) throw energy_audit::Error("CVodeCreate failed");
  void* memory = solver.memory.get();
  const auto check = [&](int flag, const char* function) { check_cvode(flag, function, data.last_message, t0); };
  solver.messages.capture_cvode(context, memory, data);
  CallbackData* callback_data = &data;  // user_data points to the base; problem_of() casts back
  check(CVodeInit(memory, rhs, t0, solver.y.get()), "CVodeInit");
  check(CVodeSetUserData(memory, callback_data), "CVodeSetUserData");
  check(CVodeSStolerances(memory, options.rtol, options.atol), "CVodeSStolerances");
  check(CVodeSetStopTime(memory, t1), "CVodeSetStopTime");
  if (options.initial_step > 0) check(CVodeSetInitStep(memory, options.initial_step), "CVodeSetInitStep");
  if (options.max_step > 0) check(CVodeSetMaxStep(memory, options.max_step), "CVodeSetMaxStep");

  if (options.iteration == NonlinearIteration::Newton) {
    solver.jacobian.reset(SUNDenseMatrix(length, length, context));
    solver.linear_solver.reset(SUNLinSol_Dense(solver.y.get(), solver.jacobian.get(), context));
    if (!solver.jacobian || !solver.linear_solver) throw energy_audit::Error("dense linear solver not created");
    check(CVodeSetLinearSolver(memory, solver.linear_solver.get(), solver.jacobian.get()), "CVodeSetLinearSolver");
  } else {
    solver.nonlinear_solver.reset(SUNNonlinSol_FixedPoint(solver.y.get(), 0, context));
    if (!solver.nonlinear_solver) throw energy_audit::Error("fixed-point solver not created");
    check(CVodeSetNonlinearSolver(memory, solver.nonlinear_solver.get()), "CVodeSetNonlinearSolver");
  }

  if (energy_flow) {  // Z as a quadrature
    solver.z = make_serial_vector(1, context);
    NV_Ith_S(solver.z.get(), 0) = 0.0;
    check(CVodeQuadInit(memory, energy_flow, solver.z.get()), "CVodeQuadInit");
    check(CVodeQuadSStolerances(memory, options.rtol, options.atol), "CVodeQuadSStolerances");
    check(CVodeSetQuadErrCon(memory, options.quadrature_error_control ? SUNTRUE : SUNFALSE), "CVodeSetQuadErrCon");
  }
}

void reinitialize(CvodesSolver& solver, const ConstVectorRef& y0, double t0, double t1, CallbackData& data) {
  if (const std::string problem = adaptive_interval_problem(t0, t1); !problem.empty()) {
    throw InvalidArgument(problem);
  }
  void* memory = solver.memory.get();
  const auto check = [&](int flag, const char* function) { check_cvode(flag, function, data.last_message, t0); };
  view(solver.y.get()) = y0;
  check(CVodeReInit(memory, t0, solver.y.get()), "CVodeReInit");
  check(CVodeSetStopTime(memory, t1), "CVodeSetStopTime");
  if (solver.z) {
    NV_Ith_S(solver.z.get(), 0) = 0.0;
    check(CVodeQuadReInit(memory, solver.z.get()), "CVodeQuadReInit");
  }
}

void fail(CvodesSolver& solver, int flag, const char* function, const CallbackData& data,
          const CvodesOptions& options) {
  double t = 0;
  CVodeGetCurrentTime(solver.memory.get(), &t);
  const std::string message = failure_message(data, flag == CV_TOO_MUCH_WORK, options.max_steps);
  throw CvodesFailure(SolverError(function, flag, cvode_flag_name(flag), message, t),
                      read_counters(solver.memory.get(), options, solver.z != nullptr));
}

}  // namespace energy_audit::sun::detail
