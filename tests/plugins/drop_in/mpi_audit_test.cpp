// The drop-in audits of CVODE and IDA programs whose state is spread over MPI ranks on SUNDIALS'
// parallel vector (drop_in_mpi.hpp, drop_in_mpi.h): run by CTest under mpiexec with 2 ranks,
// they must give what the serial audit of the same program gives with the whole state in one
// process.
//
// The program: N damped oscillators m_i x_i'' = −c_i x_i' − k_i x_i, y = [x, v], integrated by
// CVODE's Adams with fixed-point iteration, or by IDA with the matrix-free GMRES (no dense
// matrix, so the same solver runs on either vector). Each rank holds N / ranks oscillators: its y
// is [its x, its v], its energies its share.

#include <boost/test/unit_test.hpp>

#include <mpi.h>

#include <cvodes/cvodes.h>
#include <idas/idas.h>
#include <nvector/nvector_parallel.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.hpp>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <energy_audit/sundials/cvode_drop_in.h>
#include <energy_audit/sundials/cvode_drop_in.hpp>
#include <energy_audit/sundials/drop_in_mpi.h>
#include <energy_audit/sundials/drop_in_mpi.hpp>
#include <energy_audit/sundials/handles.hpp>
#include <energy_audit/sundials/ida_drop_in.h>
#include <energy_audit/sundials/ida_drop_in.hpp>

namespace sun = energy_audit::sun;

namespace {

constexpr int oscillators = 8;  // in all, over the ranks
constexpr double t_end = 5.0;

struct MpiEnvironment {
  MpiEnvironment() { MPI_Init(nullptr, nullptr); }
  ~MpiEnvironment() { MPI_Finalize(); }
};
BOOST_TEST_GLOBAL_FIXTURE(MpiEnvironment);

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int ranks() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

/// Oscillator i of the whole model: its mass, stiffness and damping.
double mass(int i) { return 1.0 + 0.25 * i; }
double stiffness(int i) { return 4.0 + 3.0 * i; }
double damping(int i) { return 0.05 * (i + 1); }

/// The oscillators [first, first + count) of the model, which one process holds.
struct Share {
  int first = 0, count = oscillators;
};

/// This rank's oscillators.
Share rank_share() {
  return {rank() * oscillators / ranks(), (rank() + 1) * oscillators / ranks() - rank() * oscillators / ranks()};
}

int rhs(sunrealtype, N_Vector y, N_Vector ydot, void* user_data) {
  const Share& share = *static_cast<const Share*>(user_data);
  const double* x = N_VGetArrayPointer(y);
  const double* v = x + share.count;
  double* dx = N_VGetArrayPointer(ydot);
  double* dv = dx + share.count;
  for (int j = 0; j < share.count; ++j) {
    const int i = share.first + j;
    dx[j] = v[j];
    dv[j] = (-damping(i) * v[j] - stiffness(i) * x[j]) / mass(i);
  }
  return 0;
}

/// F(t, y, y') = [x' − v, m v' + c v + k x] for IDA.
int residual(sunrealtype, N_Vector y, N_Vector yp, N_Vector r, void* user_data) {
  const Share& share = *static_cast<const Share*>(user_data);
  const double* x = N_VGetArrayPointer(y);
  const double* v = x + share.count;
  const double* dx = N_VGetArrayPointer(yp);
  const double* dv = dx + share.count;
  double* rx = N_VGetArrayPointer(r);
  double* rv = rx + share.count;
  for (int j = 0; j < share.count; ++j) {
    const int i = share.first + j;
    rx[j] = dx[j] - v[j];
    rv[j] = mass(i) * dv[j] + damping(i) * v[j] + stiffness(i) * x[j];
  }
  return 0;
}

// A rank's share of T, V and the dampers' power, as plain functions with user_data (Share*), for
// the C interface and, wrapped, for the C++ one.
double c_kinetic(const double*, const double* v, double, void* user_data) {
  const Share& share = *static_cast<const Share*>(user_data);
  double T = 0;
  for (int j = 0; j < share.count; ++j) T += 0.5 * mass(share.first + j) * v[j] * v[j];
  return T;
}
double c_potential(const double* x, double, void* user_data) {
  const Share& share = *static_cast<const Share*>(user_data);
  double V = 0;
  for (int j = 0; j < share.count; ++j) V += 0.5 * stiffness(share.first + j) * x[j] * x[j];
  return V;
}
double c_power(const double*, const double* v, double, void* user_data) {
  const Share& share = *static_cast<const Share*>(user_data);
  double power = 0;
  for (int j = 0; j < share.count; ++j) power -= damping(share.first + j) * v[j] * v[j];
  return power;
}

sun::DropInEnergies share_energies(Share share) {
  return {[share](const double* x, const double* v, double t) mutable { return c_kinetic(x, v, t, &share); },
          [share](const double* x, double t) mutable { return c_potential(x, t, &share); },
          [share](const double* x, const double* v, double t) mutable { return c_power(x, v, t, &share); }};
}

void check(int flag, const char* function) {
  if (flag < 0) throw std::runtime_error(std::string(function) + " failed with flag " + std::to_string(flag));
}

struct Outcome {
  double delta_C = 0, C0 = 0, H_end = 0;
  long steps = 0;
  std::string verdict;
};

/// What an audit (CvodeAudit, IdaAudit) saw over a program's `steps`.
template <class Audit>
Outcome outcome_of(const Audit& audit, long steps) {
  return {audit.relative_drift(), audit.initial_control(), audit.last_step().jacobi, steps, audit.verdict()};
}

/// x_i(0) = 1 / (i + 1), v_i(0) = 0 for the oscillators of `share`.
void set_initial_state(N_Vector y, const Share& share) {
  double* data = N_VGetArrayPointer(y);
  for (int j = 0; j < share.count; ++j) {
    data[j] = 1.0 / (share.first + j + 1);
    data[share.count + j] = 0.0;
  }
}

/// The solver of the program on `y` (serial or parallel) with `share` of the oscillators.
struct Program {
  Share share;
  sun::SunNonlinearSolver fixed_point;  // before the solver's memory: freed after it
  sun::CvodeMemory memory;

  Program(sundials::Context& context, N_Vector y, Share s) : share(s) {
    set_initial_state(y, share);
    memory.reset(CVodeCreate(CV_ADAMS, context));
    if (!memory) throw std::runtime_error("CVodeCreate failed");
    check(CVodeInit(memory.get(), rhs, 0.0, y), "CVodeInit");
    check(CVodeSetUserData(memory.get(), &share), "CVodeSetUserData");
    check(CVodeSStolerances(memory.get(), 1e-8, 1e-10), "CVodeSStolerances");
    check(CVodeSetMaxNumSteps(memory.get(), 100000), "CVodeSetMaxNumSteps");
    fixed_point.reset(SUNNonlinSol_FixedPoint(y, 0, context));
    check(CVodeSetNonlinearSolver(memory.get(), fixed_point.get()), "CVodeSetNonlinearSolver");
  }
  long steps() const {
    long n = 0;
    CVodeGetNumSteps(memory.get(), &n);
    return n;
  }
};

/// Runs the program on `y` (serial or parallel) with `share` of the oscillators, audited.
Outcome run(sundials::Context& context, N_Vector y, Share share, sun::DropInEnergies energies) {
  Program program(context, y, share);
  sun::CvodeAudit audit(share.count, std::move(energies));
  sunrealtype t = 0;
  for (int k = 1; k <= 10; ++k) check(audit.CVode(program.memory.get(), 0.1 * k * t_end, y, &t, CV_NORMAL), "CVode");
  return outcome_of(audit, program.steps());
}

/// The IDA program on `y` with `share` of the oscillators, consistent at t = 0.
struct IdaProgram {
  Share share;
  sun::NVector yp;
  sun::SunLinearSolver gmres;  // before the solver's memory: freed after it
  sun::IdaMemory memory;

  IdaProgram(sundials::Context& context, N_Vector y, Share s) : share(s), yp(N_VClone(y)) {
    set_initial_state(y, share);
    const double* x = N_VGetArrayPointer(y);
    double* rates = N_VGetArrayPointer(yp.get());
    for (int j = 0; j < share.count; ++j) {  // x_i'(0) = v_i(0) = 0, v_i'(0) = −k_i x_i(0) / m_i
      rates[j] = 0.0;
      rates[share.count + j] = -stiffness(share.first + j) * x[j] / mass(share.first + j);
    }
    memory.reset(IDACreate(context));
    if (!memory) throw std::runtime_error("IDACreate failed");
    check(IDAInit(memory.get(), residual, 0.0, y, yp.get()), "IDAInit");
    check(IDASetUserData(memory.get(), &share), "IDASetUserData");
    check(IDASStolerances(memory.get(), 1e-8, 1e-10), "IDASStolerances");
    check(IDASetMaxNumSteps(memory.get(), 100000), "IDASetMaxNumSteps");
    gmres.reset(SUNLinSol_SPGMR(y, SUN_PREC_NONE, 2 * oscillators, context));  // a full Krylov space: exact
    check(IDASetLinearSolver(memory.get(), gmres.get(), nullptr), "IDASetLinearSolver");
  }
  long steps() const {
    long n = 0;
    IDAGetNumSteps(memory.get(), &n);
    return n;
  }
};

Outcome ida_run(sundials::Context& context, N_Vector y, Share share, sun::DropInEnergies energies) {
  IdaProgram program(context, y, share);
  sun::IdaAudit audit(share.count, std::move(energies));
  sunrealtype t = 0;
  for (int k = 1; k <= 10; ++k) {
    check(audit.IDASolve(program.memory.get(), 0.1 * k * t_end, &t, y, program.yp.get(), IDA_NORMAL), "IDASolve");
  }
  return outcome_of(audit, program.steps());
}

/// The program on two ranks audited as `make_audit(share, sum)` makes the audit: the forms with
/// the sum of the ranks' shares.
template <class MakeAudit>
Outcome parallel_form_run(MakeAudit make_audit) {
  MPI_Comm communicator = MPI_COMM_WORLD;
  sundials::Context context(&communicator);
  const Share share = rank_share();
  sun::NVector y(N_VNew_Parallel(communicator, 2 * share.count, 2 * oscillators, context));
  Program program(context, y.get(), share);
  sun::CvodeAudit audit = make_audit(share, sun::sum_over_ranks(communicator));
  sunrealtype t = 0;
  for (int k = 1; k <= 10; ++k) {
    check(audit.CVode(program.memory.get(), 0.1 * k * t_end, y.get(), &t, CV_NORMAL), "CVode");
  }
  return outcome_of(audit, program.steps());
}

Outcome serial_run() {
  sundials::Context context;
  sun::NVector y(N_VNew_Serial(2 * oscillators, context));
  return run(context, y.get(), Share{}, share_energies(Share{}));
}

Outcome parallel_run(bool sum_shares) {
  MPI_Comm communicator = MPI_COMM_WORLD;
  sundials::Context context(&communicator);
  const Share share = rank_share();
  sun::NVector y(N_VNew_Parallel(communicator, 2 * share.count, 2 * oscillators, context));
  sun::DropInEnergies energies = share_energies(share);
  if (sum_shares) energies.sum_shares = sun::sum_over_ranks(communicator);
  return run(context, y.get(), share, std::move(energies));
}

}  // namespace

BOOST_AUTO_TEST_CASE(runs_on_two_ranks) { BOOST_TEST(ranks() == 2); }

BOOST_AUTO_TEST_CASE(the_audit_over_ranks_equals_the_serial_audit) {
  const Outcome serial = serial_run();
  const Outcome parallel = parallel_run(true);
  BOOST_TEST(serial.verdict == "pass");
  BOOST_TEST(parallel.verdict == "pass");
  // The solvers' norms sum over the ranks in another order than in one process: the steps are
  // the same, the solutions differ within the solver's tolerance (1e-8).
  BOOST_TEST(parallel.steps == serial.steps);
  BOOST_TEST(parallel.C0 == serial.C0, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(parallel.H_end == serial.H_end, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(parallel.delta_C == serial.delta_C, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(serial.delta_C < 1e-6);
  // The dampers took a third of the energy: δ_C is small only because Z carries it.
  double H0 = 0;
  for (int i = 0; i < oscillators; ++i) H0 += 0.5 * stiffness(i) / ((i + 1.0) * (i + 1.0));
  BOOST_TEST(serial.H_end < 0.8 * H0);

  // Every rank holds the same sums.
  double delta_C[2] = {parallel.delta_C, -parallel.delta_C};
  MPI_Allreduce(MPI_IN_PLACE, delta_C, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  BOOST_TEST(delta_C[0] == -delta_C[1]);
}

BOOST_AUTO_TEST_CASE(without_the_sum_each_rank_sees_only_its_share) {
  // The control: a rank's own share is not the model's energy, so the sum is what made them equal.
  const Outcome serial = serial_run();
  const Outcome own = parallel_run(false);
  BOOST_TEST(std::abs(own.C0 - serial.C0) > 1e-3 * serial.C0);
}

BOOST_AUTO_TEST_CASE(the_c_interface_sums_the_shares_as_the_cpp_one) {
  const Outcome cpp = parallel_run(true);
  MPI_Comm communicator = MPI_COMM_WORLD;
  sundials::Context context(&communicator);
  Share share = rank_share();
  sun::NVector y(N_VNew_Parallel(communicator, 2 * share.count, 2 * oscillators, context));
  Program program(context, y.get(), share);
  EaCvodeAudit* audit = ea_cvode_audit_create(share.count, c_kinetic, c_potential, c_power, &share, 1e-3);
  BOOST_REQUIRE(audit != nullptr);
  BOOST_TEST(ea_cvode_audit_set_share_sum(audit, ea_sum_over_ranks, &communicator) == EA_AUDIT_SUCCESS);
  sunrealtype t = 0;
  for (int k = 1; k <= 10; ++k) {
    BOOST_TEST(ea_cvode_audit(audit, program.memory.get(), 0.1 * k * t_end, y.get(), &t, CV_NORMAL) >= 0);
  }
  BOOST_TEST(ea_cvode_audit_relative_drift(audit) == cpp.delta_C);  // the same sums, bit for bit
  BOOST_TEST(std::string(ea_cvode_audit_verdict(audit)) == "pass");
  ea_cvode_audit_free(audit);
}

BOOST_AUTO_TEST_CASE(the_ida_audit_over_ranks_equals_the_serial_audit_in_cpp_and_c) {
  Outcome serial;
  {
    sundials::Context context;
    sun::NVector y(N_VNew_Serial(2 * oscillators, context));
    serial = ida_run(context, y.get(), Share{}, share_energies(Share{}));
  }
  MPI_Comm communicator = MPI_COMM_WORLD;
  sundials::Context context(&communicator);
  Share share = rank_share();
  sun::NVector y(N_VNew_Parallel(communicator, 2 * share.count, 2 * oscillators, context));
  sun::DropInEnergies energies = share_energies(share);
  energies.sum_shares = sun::sum_over_ranks(communicator);
  const Outcome parallel = ida_run(context, y.get(), share, std::move(energies));
  BOOST_TEST(serial.verdict == "pass");
  BOOST_TEST(parallel.verdict == "pass");
  BOOST_TEST(parallel.steps == serial.steps);
  BOOST_TEST(parallel.C0 == serial.C0, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(parallel.delta_C == serial.delta_C, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(serial.delta_C < 1e-5);

  // The C interface on the same program.
  IdaProgram program(context, y.get(), share);
  EaIdaAudit* audit = ea_ida_audit_create(share.count, c_kinetic, c_potential, c_power, &share, 1e-3);
  BOOST_REQUIRE(audit != nullptr);
  BOOST_TEST(ea_ida_audit_set_share_sum(audit, ea_sum_over_ranks, &communicator) == EA_AUDIT_SUCCESS);
  sunrealtype t = 0;
  for (int k = 1; k <= 10; ++k) {
    BOOST_TEST(ea_ida_audit(audit, program.memory.get(), 0.1 * k * t_end, &t, y.get(), program.yp.get(), IDA_NORMAL) >= 0);
  }
  BOOST_TEST(ea_ida_audit_relative_drift(audit) == parallel.delta_C);  // the same sums, bit for bit
  BOOST_TEST(std::string(ea_ida_audit_verdict(audit)) == "pass");
  ea_ida_audit_free(audit);
}

// Each form of the energies with the ranks' shares summed: a layout over the rank's own entries
// (its length is the rank's, not the vector's), Hamilton's form (the state's v taken as p with
// H = Σ m p²/2 + k x²/2, the dampers as Q, q' from CVODE) and the whole-state form give the
// Lagrange audit's δ_C on two ranks, and pass.
BOOST_AUTO_TEST_CASE(the_layouts_and_forms_sum_the_shares_as_the_lagrange_audit) {
  const Outcome lagrange = parallel_run(true);
  const Outcome laid_out = parallel_form_run([](Share share, auto sum) {
    sun::DropInEnergies energies = share_energies(share);
    energies.sum_shares = std::move(sum);
    sun::CvodeAudit audit(share.count, std::move(energies));
    audit.use_layout(sun::DropInLayout::strided(2L * share.count, share.count, 0, share.count, 1));
    return audit;
  });
  const Outcome hamilton = parallel_form_run([](Share share, auto sum) {
    sun::DropInHamiltonian h;
    h.hamiltonian = [share](const double* x, const double* p, double t) mutable {
      return c_kinetic(x, p, t, &share) + c_potential(x, t, &share);
    };
    h.generalized_forces = [share](const double*, const double* p, double, double* forces) {
      for (int j = 0; j < share.count; ++j) forces[j] = -damping(share.first + j) * p[j];
    };
    h.sum_shares = std::move(sum);
    return sun::CvodeAudit::hamiltonian(share.count, std::move(h));
  });
  const Outcome whole = parallel_form_run([](Share share, auto sum) {
    return sun::CvodeAudit::whole_state(
        {.energy = [share](const double* y, double t) mutable {
           return c_kinetic(y, y + share.count, t, &share) + c_potential(y, t, &share);
         },
         .power = [share](const double* y, double t) mutable { return c_power(y, y + share.count, t, &share); },
         .sum_shares = std::move(sum)});
  });
  for (const Outcome* outcome : {&laid_out, &hamilton, &whole}) {
    BOOST_TEST(outcome->verdict == "pass");
    BOOST_TEST(outcome->steps == lagrange.steps);
    BOOST_TEST(outcome->C0 == lagrange.C0, boost::test_tools::tolerance(1e-14));
  }
  BOOST_TEST(whole.delta_C == lagrange.delta_C, boost::test_tools::tolerance(1e-6));
  // Hamilton's form reads q' from CVODE's interpolant, which differs from v by the solver's own
  // error: δ_C, itself at that error, agrees to a few parts in 1e4.
  BOOST_TEST(hamilton.delta_C == lagrange.delta_C, boost::test_tools::tolerance(1e-2));
  BOOST_TEST(laid_out.delta_C == lagrange.delta_C);  // the same functions on the same entries, bit for bit
}
