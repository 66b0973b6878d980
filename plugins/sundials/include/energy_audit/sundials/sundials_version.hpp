#pragma once
/// \file
/// The one place where the plugins depend on SUNDIALS' version (SUNDIALS_VERSION_MAJOR from
/// sundials/sundials_config.h; 6.4 to 6.x and 7.x are supported). For what the adapters use,
/// SUNDIALS 6 and 7 differ in how a solver's messages reach the program:
///   - SUNDIALS 6 calls an error handler set on each solver (CVodeSetErrHandlerFn,
///     IDASetErrHandlerFn) with errors and warnings alike (a warning's code is CV_WARNING =
///     IDA_WARNING);
///   - SUNDIALS 7 calls the error handlers of the solver's SUNContext (SUNContext_PushErrHandler,
///     SUNErrHandlerFn) with errors only, and writes warnings to the context's SUNLogger.
/// SolverMessages gives both the same outcome (callback_data.hpp): an error's text is kept for
/// the failure it comes with, nothing of it is printed, and each distinct warning is printed to
/// stderr once per run. SUNDIALS 6 hands a warning over as it is issued, and it is printed then;
/// SUNDIALS 7's logger can write only to files, so its warnings are read back and printed when
/// the solver is released, at the end of the run, before a failure propagates.

#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>

#if SUNDIALS_VERSION_MAJOR < 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR < 4) || \
    SUNDIALS_VERSION_MAJOR > 7
#error "EnergyAudit's SUNDIALS plugins support SUNDIALS 6.4 to 6.x and 7.x"
#endif

#if SUNDIALS_VERSION_MAJOR < 7
#include <cvodes/cvodes.h>
#include <idas/idas.h>
#else
#include <sundials/sundials_logger.h>
#endif

#include "energy_audit/sundials/callback_data.hpp"

namespace energy_audit::sun::detail {

/// Takes SUNDIALS' messages about one solver for its CallbackData. A member of the adapter's
/// solver declared after the SUNContext and before the solver's other handles.
class SolverMessages {
 public:
  SolverMessages() = default;
  SolverMessages(const SolverMessages&) = delete;
  SolverMessages& operator=(const SolverMessages&) = delete;
  /// SUNDIALS 7: prints the warnings the context's logger received (once each).
  ~SolverMessages();

  /// Routes the messages about the CVODES solver `cvode_memory`, created on `context`, to
  /// `data`, which must outlive the solver. Throws energy_audit::Error if SUNDIALS refuses.
  void capture_cvode(SUNContext context, void* cvode_memory, CallbackData& data);
  /// The same for the IDAS solver `ida_memory`.
  void capture_ida(SUNContext context, void* ida_memory, CallbackData& data);
#if SUNDIALS_VERSION_MAJOR >= 7
  /// The same for an ARKODE solver created on `context` (on SUNDIALS 6 the ARKODE adapter sets
  /// its stepper's error handler to handle_sundials6_message itself).
  void capture_arkode(SUNContext context, CallbackData& data) { capture(context, data); }
#endif

 private:
#if SUNDIALS_VERSION_MAJOR >= 7
  void capture(SUNContext context, CallbackData& data);

  CallbackData* data_ = nullptr;
  SUNLogger logger_ = nullptr;  ///< the context's, which owns it
  int warning_file_ = -1;       ///< where the logger writes warnings, read back by the destructor
#endif
};

/// Throws energy_audit::Error naming `function` when `flag` (SUNDIALS' return code) is not 0.
void check_message_setup(int flag, const char* function);

#if SUNDIALS_VERSION_MAJOR < 7
/// SUNDIALS 6's error handler of CVODES, IDAS and ARKODE (one signature; `data` is the
/// CallbackData).
void handle_sundials6_message(int error_code, const char* module, const char* function, char* message,
                              void* data) noexcept;

// Inline: the common library names neither CVODES nor IDAS; each adapter uses its own.
inline SolverMessages::~SolverMessages() = default;
inline void SolverMessages::capture_cvode(SUNContext, void* cvode_memory, CallbackData& data) {
  check_message_setup(CVodeSetErrHandlerFn(cvode_memory, handle_sundials6_message, &data), "CVodeSetErrHandlerFn");
}
inline void SolverMessages::capture_ida(SUNContext, void* ida_memory, CallbackData& data) {
  check_message_setup(IDASetErrHandlerFn(ida_memory, handle_sundials6_message, &data), "IDASetErrHandlerFn");
}
#else
inline void SolverMessages::capture_cvode(SUNContext context, void*, CallbackData& data) { capture(context, data); }
inline void SolverMessages::capture_ida(SUNContext context, void*, CallbackData& data) { capture(context, data); }
#endif

}  // namespace energy_audit::sun::detail
