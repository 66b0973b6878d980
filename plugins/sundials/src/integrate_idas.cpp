#include "energy_audit/sundials/integrate_idas.hpp"

#include <cstdlib>
#include <memory>

#include <idas/idas_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <energy_audit/saddle_point.hpp>

#include "energy_audit/sundials/adaptive_interval.hpp"

namespace energy_audit::sun {

std::string idas_flag_name(int flag) {
  // SUNDIALS allocates the name with malloc; the caller frees it.
  const std::unique_ptr<char, decltype(&std::free)> name(IDAGetReturnFlagName(flag), &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

namespace detail {

void dae_residual(const DaeLayout& L, const DaeTerms& terms, const std::optional<Baumgarte>& baumgarte,
                  const ConstVectorRef& Y, const ConstVectorRef& Yp, Eigen::Ref<Vector> F) {
  const Index n = L.n, m = L.m;
  const auto v = Y.segment(n, n);
  const auto lambda = Y.segment(L.lambda(), m);
  const auto q_dot = Yp.head(n);
  const auto v_dot = Yp.segment(n, n);
  F.head(n) = q_dot - v;
  F.segment(n, n) = terms.mass * v_dot - terms.G.transpose() * lambda - terms.rhs;
  if (L.ggl) {
    F.head(n) -= terms.G.transpose() * Y.segment(L.mu(), m);
    F.segment(L.lambda(), m) = terms.psi;
    F.segment(L.mu(), m) = terms.Phi;
  } else {
    Vector level = terms.G * v_dot + terms.bias;
    if (baumgarte) level += 2 * baumgarte->alpha * terms.psi + baumgarte->beta * baumgarte->beta * terms.Phi;
    F.segment(L.lambda(), m) = level;
  }
  if (L.z_in_state) F[L.z()] = Yp[L.z()] - dae_energy_flow(L, terms, Y);
}

double dae_energy_flow(const DaeLayout& L, const DaeTerms& terms, const ConstVectorRef& Y) {
  const auto v = Y.segment(L.n, L.n);
  return terms.energy_flow_rate - (terms.G * v).dot(Y.segment(L.lambda(), L.m));
}

void ggl_initial_values(const DaeLayout& L, const DaeTerms& terms, const ConstVectorRef& y0, double t0,
                        Eigen::Ref<Vector> Y, Eigen::Ref<Vector> Yp) {
  const double scale = 1.0 + y0.head(2 * L.n).cwiseAbs().maxCoeff();
  const double position = terms.Phi.norm(), velocity = terms.psi.norm();
  if (position > 1e-10 * scale || velocity > 1e-10 * scale) {
    throw InvalidArgument("inconsistent initial values for GGL: |Phi(q0)| = " + std::to_string(position) +
                          ", |G v0 + g| = " + std::to_string(velocity) +
                          " (q and v are not changed by IDACalcIC, so they must satisfy the constraints)");
  }
  const SaddlePointSolution<Eigen::Dynamic, Eigen::Dynamic> s =
      solve_saddle_point<Eigen::Dynamic, Eigen::Dynamic>(terms.mass, terms.G, terms.rhs, -terms.bias, t0);
  Y.segment(L.lambda(), L.m) = s.lambda;
  Yp.segment(L.n, L.n) = s.a;
  if (L.z_in_state) Yp[L.z()] = dae_energy_flow(L, terms, Y);
}

SolverCounters read_idas_counters(void* memory, bool quadrature) {
  SolverCounters c;
  IDAGetNumSteps(memory, &c.steps);
  IDAGetNumResEvals(memory, &c.rhs_evaluations);
  IDAGetNumNonlinSolvIters(memory, &c.nonlinear_iterations);
  IDAGetNumNonlinSolvConvFails(memory, &c.nonlinear_convergence_failures);
  IDAGetNumErrTestFails(memory, &c.error_test_failures);
  IDAGetNumJacEvals(memory, &c.jacobian_evaluations);
  IDAGetNumLinResEvals(memory, &c.jacobian_rhs_evaluations);
  if (quadrature) IDAGetQuadNumRhsEvals(memory, &c.quadrature_rhs_evaluations);
  return c;
}

void configure(IdasSolver& solver, const DaeLayout& L, const Vector& Y0, const Vector& Yp0, double t0, double t1,
               IDAResFn residual, IDAQuadRhsFn energy_flow, IdasCallbackData& data, const IdasOptions& options) {
  if (!(options.rtol > 0) || !(options.atol > 0)) throw InvalidArgument("rtol and atol must be > 0");
  if (!(options.max_steps > 0)) throw InvalidArgument("max_steps must be > 0");
  if (const std::string problem = adaptive_interval_problem(t0, t1); !problem.empty()) {
    throw InvalidArgument(problem);
  }
  SUNContext context = solver.context;
  const auto length = static_cast<sunindextype>(L.size());
  solver.Y = make_serial_vector(length, context);
  solver.Yp = make_serial_vector(length, context);
  solver.id = make_serial_vector(length, context);
  view(solver.Y.get()) = Y0;
  view(solver.Yp.get()) = Yp0;
  Eigen::Map<Vector> id = view(solver.id.get());
  id.setOnes();  // differential: q, v, Z
  id.segment(L.lambda(), L.m * (L.ggl ? 2 : 1)).setZero();  // algebraic: λ (and μ)

  solver.memory.reset(IDACreate(context));
  if (!solver.memory) throw energy_audit::Error("IDACreate failed");
  void* memory = solver.memory.get();
  const auto check = [&](int flag, const char* function) {
    if (flag < 0) throw SolverError(function, flag, idas_flag_name(flag), data.last_message, t0);
  };
  solver.messages.capture_ida(context, memory, data);
  CallbackData* callback_data = &data;  // user_data points to the base; problem_of() casts back
  check(IDAInit(memory, residual, t0, solver.Y.get(), solver.Yp.get()), "IDAInit");
  check(IDASetUserData(memory, callback_data), "IDASetUserData");
  check(IDASStolerances(memory, options.rtol, options.atol), "IDASStolerances");
  check(IDASetId(memory, solver.id.get()), "IDASetId");
  // λ (and μ) leave the error test: the multipliers follow from q and v, and for GGL they are index 2.
  check(IDASetSuppressAlg(memory, SUNTRUE), "IDASetSuppressAlg");
  check(IDASetStopTime(memory, t1), "IDASetStopTime");
  if (options.initial_step > 0) check(IDASetInitStep(memory, options.initial_step), "IDASetInitStep");
  if (options.max_step > 0) check(IDASetMaxStep(memory, options.max_step), "IDASetMaxStep");

  solver.jacobian.reset(SUNDenseMatrix(length, length, context));
  solver.linear_solver.reset(SUNLinSol_Dense(solver.Y.get(), solver.jacobian.get(), context));
  if (!solver.jacobian || !solver.linear_solver) throw energy_audit::Error("dense linear solver not created");
  check(IDASetLinearSolver(memory, solver.linear_solver.get(), solver.jacobian.get()), "IDASetLinearSolver");

  if (energy_flow) {  // Z as a quadrature
    solver.z = make_serial_vector(1, context);
    NV_Ith_S(solver.z.get(), 0) = 0.0;
    check(IDAQuadInit(memory, energy_flow, solver.z.get()), "IDAQuadInit");
    check(IDAQuadSStolerances(memory, options.rtol, options.atol), "IDAQuadSStolerances");
    check(IDASetQuadErrCon(memory, options.quadrature_error_control ? SUNTRUE : SUNFALSE), "IDASetQuadErrCon");
  }
}

void reinitialize(IdasSolver& solver, const Vector& Y0, const Vector& Yp0, double t0, double t1,
                  IdasCallbackData& data) {
  if (const std::string problem = adaptive_interval_problem(t0, t1); !problem.empty()) {
    throw InvalidArgument(problem);
  }
  void* memory = solver.memory.get();
  const auto check = [&](int flag, const char* function) {
    if (flag < 0) throw SolverError(function, flag, idas_flag_name(flag), data.last_message, t0);
  };
  view(solver.Y.get()) = Y0;
  view(solver.Yp.get()) = Yp0;
  check(IDAReInit(memory, t0, solver.Y.get(), solver.Yp.get()), "IDAReInit");
  check(IDASetStopTime(memory, t1), "IDASetStopTime");
  if (solver.z) {
    NV_Ith_S(solver.z.get(), 0) = 0.0;
    check(IDAQuadReInit(memory, solver.z.get()), "IDAQuadReInit");
  }
}

void fail_idas(IdasSolver& solver, int flag, const char* function, const IdasCallbackData& data,
               const IdasOptions& options) {
  double t = 0;
  IDAGetCurrentTime(solver.memory.get(), &t);
  const std::string message = failure_message(data, flag == IDA_TOO_MUCH_WORK, options.max_steps);
  throw IdasFailure(SolverError(function, flag, idas_flag_name(flag), message, t),
                    read_idas_counters(solver.memory.get(), solver.z != nullptr));
}

void idas_one_step(IdasSolver& solver, IdasCallbackData& data, const IdasOptions& options, double t1, double& t,
                   long& steps) {
  if (steps >= options.max_steps) fail_idas(solver, IDA_TOO_MUCH_WORK, "IDASolve", data, options);
  const int flag = IDASolve(solver.memory.get(), t1, &t, solver.Y.get(), solver.Yp.get(), IDA_ONE_STEP);
  data.guard.rethrow_if_failed();
  if (flag < 0) fail_idas(solver, flag, "IDASolve", data, options);
  ++steps;
}

double idas_quadrature_z(IdasSolver& solver, const IdasCallbackData& data, const IdasOptions& options, double t) {
  double t_quadrature = t;
  const int flag = IDAGetQuad(solver.memory.get(), &t_quadrature, solver.z.get());
  if (flag < 0) fail_idas(solver, flag, "IDAGetQuad", data, options);
  return NV_Ith_S(solver.z.get(), 0);
}

}  // namespace detail
}  // namespace energy_audit::sun
