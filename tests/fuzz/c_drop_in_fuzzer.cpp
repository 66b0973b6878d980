// libFuzzer target: the C interface of the CVODE drop-in audit (cvode_drop_in.h) called
// as a C program might call it: arbitrary dofs and thresholds (NaN, infinities, negatives),
// energy functions present or NULL and returning NaN or infinities, a NULL handle, solver
// memory, output or time pointer, states shorter than [q, v], arbitrary output times and task
// codes, plain CVode steps and re-initializations between audited calls, and every query,
// in an order the input chooses. The CVODE program is the damped oscillator m q'' = −c q' − k q
// over a state of 1 to 6 entries. No call may crash, leak, hang or break an invariant of its
// answer (a return code of CVODE's or the audit's, a message for every error code).
#include <cvodes/cvodes.h>
#include <fuzzer/FuzzedDataProvider.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "energy_audit/sundials/cvode_drop_in.h"

namespace {

void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "c_drop_in_fuzzer: %s\n", what);
    std::abort();
  }
}

/// What the energy functions return besides their formula, chosen by the input.
enum class Values { Formula, NotANumber, Infinite };

struct Program {
  double m = 2.0, c = 0.4, k = 18.0;
  Values values = Values::Formula;
};

double value(const Program& p, double formula) {
  switch (p.values) {
    case Values::NotANumber:
      return std::numeric_limits<double>::quiet_NaN();
    case Values::Infinite:
      return std::numeric_limits<double>::infinity();
    default:
      return formula;
  }
}

double kinetic(const double*, const double* v, double, void* data) {
  const Program& p = *static_cast<Program*>(data);
  return value(p, 0.5 * p.m * v[0] * v[0]);
}
double potential(const double* q, double, void* data) {
  const Program& p = *static_cast<Program*>(data);
  return value(p, 0.5 * p.k * q[0] * q[0]);
}
double power(const double*, const double* v, double, void* data) {
  const Program& p = *static_cast<Program*>(data);
  return value(p, -p.c * v[0] * v[0]);
}
double kinetic_rate(const double*, const double*, double, void*) { return 0; }
double potential_rate(const double*, double, void*) { return 0; }
void single_rank_sum(double*, int, void*) {}  // one rank: the shares are the sums

int rhs(sunrealtype, N_Vector y, N_Vector ydot, void* data) {
  const Program& p = *static_cast<Program*>(data);
  N_VConst(0.0, ydot);
  if (N_VGetLength(y) >= 2) {
    NV_Ith_S(ydot, 0) = NV_Ith_S(y, 1);
    NV_Ith_S(ydot, 1) = (-p.c * NV_Ith_S(y, 1) - p.k * NV_Ith_S(y, 0)) / p.m;
  } else {
    NV_Ith_S(ydot, 0) = -p.k / p.m * NV_Ith_S(y, 0);
  }
  return 0;
}

/// A number for an argument: often an ordinary one, sometimes one that breaks assumptions.
double any_number(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 9)) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return std::numeric_limits<double>::infinity();
    case 2:
      return -std::numeric_limits<double>::infinity();
    case 3:
      return std::numeric_limits<double>::denorm_min();
    case 4:
      return in.ConsumeFloatingPoint<double>();
    default:
      return in.ConsumeFloatingPointInRange(-10.0, 10.0);
  }
}

int any_dofs(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 7)) {
    case 0:
      return std::numeric_limits<int>::min();
    case 1:
      return std::numeric_limits<int>::max();
    case 2:
      return in.ConsumeIntegral<int>();
    default:
      return in.ConsumeIntegralInRange(-1, 3);
  }
}

int any_task(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 4)) {
    case 0:
      return in.ConsumeIntegral<int>();
    case 1:
      return CV_ONE_STEP;
    default:
      return CV_NORMAL;
  }
}

bool is_error_code(int flag) { return flag == EA_AUDIT_INVALID_ARGUMENT || flag == EA_AUDIT_FAILED; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  static FILE* const sink = std::fopen("/dev/null", "w");
  Program program;
  program.values = static_cast<Values>(in.ConsumeIntegralInRange(0, 2));

  // The handle, possibly made with bad arguments, or none at all.
  EaCvodeAudit* audit = nullptr;
  if (in.ConsumeIntegralInRange(0, 7) != 0) {
    audit = ea_cvode_audit_create(any_dofs(in), in.ConsumeIntegralInRange(0, 7) != 0 ? kinetic : nullptr,
                                  in.ConsumeIntegralInRange(0, 7) != 0 ? potential : nullptr,
                                  in.ConsumeBool() ? power : nullptr, &program,
                                  in.ConsumeBool() ? 1e-3 : any_number(in));
    require(audit != nullptr, "ea_cvode_audit_create returned NULL");
  }

  // The CVODE program over a state of 1 to 6 entries, at most 200 steps a call.
  SUNContext context = nullptr;
#if SUNDIALS_VERSION_MAJOR >= 7
  require(SUNContext_Create(SUN_COMM_NULL, &context) == 0, "SUNContext_Create");
#else
  require(SUNContext_Create(nullptr, &context) == 0, "SUNContext_Create");
#endif
  const auto length = in.ConsumeIntegralInRange<sunindextype>(1, 6);
  N_Vector y = N_VNew_Serial(length, context);
  N_VConst(0.0, y);
  NV_Ith_S(y, 0) = 1.0;
  void* cvode_mem = CVodeCreate(CV_BDF, context);
  SUNMatrix A = SUNDenseMatrix(length, length, context);
  SUNLinearSolver solver = SUNLinSol_Dense(y, A, context);
  require(CVodeInit(cvode_mem, rhs, 0.0, y) == CV_SUCCESS &&
              CVodeSetUserData(cvode_mem, &program) == CV_SUCCESS &&
              CVodeSStolerances(cvode_mem, 1e-8, 1e-10) == CV_SUCCESS &&
              CVodeSetMaxNumSteps(cvode_mem, 200) == CV_SUCCESS &&
              CVodeSetLinearSolver(cvode_mem, solver, A) == CV_SUCCESS,
          "the CVODE set-up");
  // CVODE's messages about the bad arguments given on purpose would flood the output.
#if SUNDIALS_VERSION_MAJOR >= 7
  SUNContext_ClearErrHandlers(context);
#else
  CVodeSetErrFile(cvode_mem, nullptr);
#endif

  sunrealtype t = 0;
  for (int call = 0; call < 8 && in.remaining_bytes() > 0; ++call) {
    switch (in.ConsumeIntegralInRange(0, 7)) {
      case 0:
      case 1:
      case 2: {  // an audited call, its arguments as the input says
        const int task = any_task(in);
        // In CV_NORMAL the audit steps one CV_ONE_STEP call at a time until tout, without CVODE's
        // per-call step limit (cvode_drop_in.hpp): a tout far away, infinite or NaN is not reached
        // in bounded time, so that task gets one within reach.
        const double tout = task == CV_NORMAL || in.ConsumeBool()
                                ? t + in.ConsumeFloatingPointInRange(-1.0, 5.0)
                                : any_number(in);
        // An output of another length than the solver's is outside CVODE's contract, audited or not.
        N_Vector out = in.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : y;
        void* memory = in.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : cvode_mem;
        sunrealtype* tret = in.ConsumeIntegralInRange(0, 7) == 0 ? nullptr : &t;
        const int flag = ea_cvode_audit(audit, memory, tout, out, tret, task);
        if (is_error_code(flag)) {
          require(audit == nullptr || std::strlen(ea_cvode_audit_last_error(audit)) > 0,
                  "an error code without a message");
        }
        break;
      }
      case 3:  // a step beside the audit
        CVodeGetCurrentTime(cvode_mem, &t);
        CVode(cvode_mem, t + 1.0, y, &t, CV_ONE_STEP);
        break;
      case 4:  // a re-initialization where the solver stands
        CVodeGetCurrentTime(cvode_mem, &t);
        CVodeReInit(cvode_mem, t, y);
        break;
      case 5: {  // energy rates, a share sum, Z as CVODES' quadrature or T declared quadratic, allowed
                 // only before the first audited call
        int flag = 0;
        switch (in.ConsumeIntegralInRange(0, 3)) {
          case 0:
            flag = ea_cvode_audit_set_energy_rates(audit, in.ConsumeBool() ? kinetic_rate : nullptr,
                                                   in.ConsumeBool() ? potential_rate : nullptr);
            break;
          case 1:
            flag = ea_cvode_audit_set_share_sum(audit, in.ConsumeBool() ? single_rank_sum : nullptr, nullptr);
            break;
          case 2:
            flag = ea_cvode_audit_integrate_flow_as_quadrature(audit);
            break;
          default:
            flag = ea_cvode_audit_declare_quadratic_kinetic_energy(audit);
        }
        require(flag == EA_AUDIT_SUCCESS || is_error_code(flag), "a set function returned an unknown code");
        break;
      }
      case 6:  // a stop time ahead (CVODE's own functions get what CVODE accepts)
        CVodeGetCurrentTime(cvode_mem, &t);
        CVodeSetStopTime(cvode_mem, t + in.ConsumeFloatingPointInRange(0.0, 3.0));
        break;
      default: {  // every query
        EaCvodeAuditEnergies energies{};
        const int flag = ea_cvode_audit_last_energies(audit, in.ConsumeBool() ? &energies : nullptr);
        require(flag == EA_AUDIT_SUCCESS || flag == EA_AUDIT_INVALID_ARGUMENT,
                "last_energies returned an unknown code");
        ea_cvode_audit_relative_drift(audit);
        const char* verdict = ea_cvode_audit_verdict(audit);
        require(verdict != nullptr && ea_cvode_audit_last_error(audit) != nullptr &&
                    ea_cvode_audit_diagnosis(audit) != nullptr,
                "a query returned NULL");
        require(ea_cvode_audit_passed(audit) == (std::strcmp(verdict, "pass") == 0),
                "passed() and the verdict differ");
        require(ea_cvode_audit_steps(audit) >= 0, "a negative step count");
        ea_cvode_audit_print_summary(audit, in.ConsumeBool() ? sink : nullptr);
        break;
      }
    }
  }

  ea_cvode_audit_free(audit);
  CVodeFree(&cvode_mem);
  SUNLinSolFree(solver);
  SUNMatDestroy(A);
  N_VDestroy(y);
  SUNContext_Free(&context);
  return 0;
}
