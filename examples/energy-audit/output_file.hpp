#pragma once
/// \file
/// Files the command line writes: checked before any run, written under a temporary name and
/// renamed over the requested one, so that name never holds an empty, half-written or stale file.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace energy_audit::cli {

/// `path` as messages name it: in single quotes, with control characters shown as \n, \t or
/// \xNN so that a message about any file name stays on one line.
std::string quoted_path(std::string_view path);

/// The open descriptor a name stands for, written in place whatever it is: 1 for "-" and
/// /dev/stdout (standard output, as Unix tools take them), 2 for /dev/stderr, N for /dev/fd/N.
/// Absent for every other name.
std::optional<int> named_descriptor(std::string_view path);

/// Whether `path` names standard output ("-", /dev/stdout, /dev/fd/1).
bool names_standard_output(std::string_view path);

/// Keeps this process's standard output for the outputs that name it and sends everything
/// printed from now on (the human summary) to standard error, so that standard output carries
/// the requested file alone. Call once, before anything is printed.
void reserve_standard_output_for_outputs();

/// Usage checks made before anything is created: throws UsageError (usage_error.hpp) naming
/// `option`, for an empty name, a name that is a directory, a directory that does not exist or
/// is not writable, an existing file that cannot be replaced; the message gives the reason
/// (strerror: "No such file or directory", "Permission denied", "Is a directory"), as in
/// "--plot: cannot write 'a/b.png': No such file or directory". A symbolic link is followed to
/// the file it names, as writing through it would. A name of a descriptor (named_descriptor) must
/// be open for writing. A directory on a file system of the kernel's interfaces (proc, sysfs,
/// cgroup, ...) is refused with that reason, as in "--csv: cannot write '/proc/version': '/proc'
/// is on the kernel's proc file system, where no file can be created or replaced". Creates nothing.
void check_output_path(std::string_view option, const std::string& path);

/// Usage error when two of the given (option, path) outputs name the same file: their lexically
/// normalized absolute paths (after following symbolic links) are equal, or both exist and
/// std::filesystem::equivalent says they are one file, or both name one descriptor ("-" and
/// /dev/stdout: standard output). Empty paths (options not given) and other existing devices or
/// pipes (/dev/null), which are written in place, are skipped.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);

/// Removes the temporaries of the OutputFiles open, leaving the targets as they are: for a signal
/// handler about to end the process (interruption.hpp), so that not even the hidden temporary
/// stays. Async-signal-safe: it reads fixed storage and calls unlink() alone.
void remove_temporary_outputs() noexcept;

/// A file written under a temporary name in the target's directory (".NAME.XXXXXX", created with
/// O_EXCL) and renamed over the target by commit(); destroyed uncommitted, it removes the
/// temporary, so a usage error, an exception or a full disk never leaves an empty, half-written
/// or stale file under the target's name, and a signal handler that ends the process removes the
/// temporaries first (remove_temporary_outputs). The committed file has the mode of the file it replaces, or 0666 & ~umask
/// for a new one. A symbolic link target is followed: the file it names is replaced and the link
/// kept. An existing target that is not a regular file (/dev/null, a pipe, a terminal) is
/// written in place, never replaced, and so is the descriptor a name stands for ("-": standard
/// output; named_descriptor). Move-only.
class OutputFile {
 public:
  /// Throws energy_audit::Error("cannot write 'PATH': reason") for the cases check_output_path
  /// refuses, and when the temporary cannot be created. The temporary's name is registered for
  /// remove_temporary_outputs() before the file is created, and until it is renamed or removed.
  explicit OutputFile(std::string target);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  /// Buffered (64 KiB); throws energy_audit::Error("cannot write 'PATH': reason"), e.g.
  /// "No space left on device", when the buffer cannot be written out.
  void write(std::string_view text);
  /// Flushes the buffer and returns the open descriptor, for a child process to write into
  /// (it is close-on-exec: hand it over with dup2). Valid until commit().
  int descriptor();
  /// Flushes, closes (checking its errors) and renames the temporary over the target; throws
  /// energy_audit::Error with the reason, leaving the target as it was. Once only.
  void commit();
  /// The name as given to the constructor.
  const std::string& target() const { return target_; }

 private:
  void flush();
  void discard() noexcept;
  [[noreturn]] void fail(int error) const;

  std::string target_;
  std::string destination_;  ///< the target with symbolic links followed: what commit() replaces
  std::string temporary_;    ///< empty when writing in place, and after commit()
  std::string buffer_;
  int fd_ = -1;
  int slot_ = -1;  ///< the temporary's entry for remove_temporary_outputs(); -1 when none
};

}  // namespace energy_audit::cli
