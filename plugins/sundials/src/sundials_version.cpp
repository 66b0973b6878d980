#include "energy_audit/sundials/sundials_version.hpp"

#include <string>
#include <string_view>

#include <energy_audit/error.hpp>

#if SUNDIALS_VERSION_MAJOR >= 7
#include <stdlib.h>  // mkstemp
#include <unistd.h>  // read, close, unlink

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <sundials/sundials_errors.h>
#endif

// CMakeLists.txt passes the version of the SUNDIALS package it found: the headers compiled
// against must be that installation's, not another one's earlier on the include path.
#ifdef ENERGY_AUDIT_SUNDIALS_PACKAGE_VERSION
static_assert(std::string_view(SUNDIALS_VERSION) == ENERGY_AUDIT_SUNDIALS_PACKAGE_VERSION,
              "the SUNDIALS headers found are not those of the SUNDIALS package CMake found");
#endif

namespace energy_audit::sun::detail {

void check_message_setup(int flag, const char* function) {
  if (flag != 0) throw energy_audit::Error(std::string(function) + " failed with flag " + std::to_string(flag));
}

#if SUNDIALS_VERSION_MAJOR < 7

static_assert(CV_WARNING == IDA_WARNING, "one handler serves CVODES and IDAS");

void handle_sundials6_message(int error_code, const char*, const char*, char* message, void* data) noexcept {
  auto& callback_data = *static_cast<CallbackData*>(data);
  if (error_code == CV_WARNING) {
    note_sundials_warning(callback_data, message);
  } else {
    note_sundials_error(callback_data, message);
  }
}

#else

namespace {

void keep_error(int, const char*, const char*, const char* message, SUNErrCode, void* data, SUNContext) noexcept {
  note_sundials_error(*static_cast<CallbackData*>(data), message);
}

std::string read_all(int file) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(file, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return text;
    }
  }
}

// The logger writes each warning as "[WARNING][rank R][FILE:LINE][FUNCTION] MESSAGE\n"; a
// message may hold line breaks, so a record ends where a line starts the next one.
void note_logged_warnings(CallbackData& data, std::string_view text) {
  constexpr std::string_view record_start = "[WARNING][rank ";
  const auto next_record = [&](std::size_t from) {
    std::size_t at = text.find(record_start, from);
    while (at != std::string_view::npos && at > 0 && text[at - 1] != '\n') at = text.find(record_start, at + 1);
    return at;
  };
  for (std::size_t at = next_record(0); at != std::string_view::npos;) {
    const std::size_t next = next_record(at + record_start.size());
    std::string_view record = text.substr(at, next == std::string_view::npos ? next : next - at);
    if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
    const std::size_t header_end = record.find("] ");
    if (header_end != std::string_view::npos) record.remove_prefix(header_end + 2);
    note_sundials_warning(data, std::string(record).c_str());
    at = next;
  }
}

}  // namespace

void SolverMessages::capture(SUNContext context, CallbackData& data) {
  data_ = &data;
  // Errors go to keep_error alone: SUNDIALS' default handler would also print them.
  check_message_setup(SUNContext_ClearErrHandlers(context), "SUNContext_ClearErrHandlers");
  check_message_setup(SUNContext_PushErrHandler(context, keep_error, &data), "SUNContext_PushErrHandler");
  // Warnings: the logger writes only to files it opens by name. It gets a temporary file, which
  // is unlinked once open and read back through this descriptor. Where no temporary file can be
  // made, the logger writes them to stderr itself (in its own format, each time).
  check_message_setup(SUNContext_GetLogger(context, &logger_), "SUNContext_GetLogger");
  std::error_code no_directory;
  std::filesystem::path directory = std::filesystem::temp_directory_path(no_directory);
  if (no_directory) directory = "/tmp";
  std::string name = (directory / "energy-audit-sundials-XXXXXX").string();
  const int file = mkstemp(name.data());
  const SUNErrCode opened = SUNLogger_SetWarningFilename(logger_, file < 0 ? "stderr" : name.c_str());
  if (file < 0) return;
  unlink(name.c_str());
  if (opened != SUN_SUCCESS) {
    close(file);
    SUNLogger_SetWarningFilename(logger_, "stderr");
    return;
  }
  warning_file_ = file;
}

SolverMessages::~SolverMessages() {
  if (warning_file_ < 0) return;
  SUNLogger_Flush(logger_, SUN_LOGLEVEL_WARNING);
  try {
    note_logged_warnings(*data_, read_all(warning_file_));
  } catch (...) {  // out of memory for the warnings: lose them
  }
  close(warning_file_);
}

#endif

}  // namespace energy_audit::sun::detail
