#include "output_file.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include <energy_audit/error.hpp>

#include "usage_error.hpp"

namespace energy_audit::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t buffer_capacity = 64 * 1024;
constexpr int max_symbolic_links = 40;  // Linux's own limit for one path (ELOOP)
constexpr std::size_t max_name_in_temporary = 200;  // ".NAME.XXXXXX" stays within NAME_MAX (255)

/// What a target name leads to once its symbolic links are followed.
struct Destination {
  std::string path;
  bool exists = false;
  struct stat status {};
  std::string directory;          ///< where the file would be created
  const char* file_system = "";   ///< the kernel's file system the directory is on (for kernel_interface)
};

/// inspect()'s refusal of a directory on a file system of the kernel's interfaces (proc, sysfs):
/// creating a file there fails with a misleading errno (ENOENT in /proc), so the reason is told
/// in words (refusal_text).
constexpr int kernel_interface = -1;

/// The name of the kernel-interface file system `type` (statfs's f_type), or nullptr for a file
/// system that holds files.
const char* kernel_interface_name(long type) {
  switch (type) {
    case PROC_SUPER_MAGIC: return "proc";
    case SYSFS_MAGIC: return "sysfs";
    case CGROUP_SUPER_MAGIC: return "cgroup";
    case CGROUP2_SUPER_MAGIC: return "cgroup2";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case BPF_FS_MAGIC: return "bpf";
    default: return nullptr;
  }
}

/// Why `target` cannot be written: strerror(error), or for kernel_interface the file system.
std::string refusal_text(int error, const Destination& destination) {
  if (error != kernel_interface) return std::strerror(error);
  return quoted_path(destination.directory) + " is on the kernel's " + destination.file_system +
         " file system, where no file can be created or replaced";
}

/// Standard output as it was before reserve_standard_output_for_outputs(), which then sends
/// descriptor 1 to standard error; -1 until then.
int reserved_standard_output = -1;

/// The descriptor that the outputs naming descriptor `fd` write to.
int descriptor_behind(int fd) {
  return fd == STDOUT_FILENO && reserved_standard_output >= 0 ? reserved_standard_output : fd;
}

bool can_write(const std::string& path, int mode) {
  return ::faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0;
}

/// Checks that `fd` is open for writing; 0 or the errno that says why not.
int inspect_descriptor(int fd, Destination& out) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return errno;
  if ((flags & O_ACCMODE) == O_RDONLY) return EBADF;
  if (::fstat(fd, &out.status) != 0) return errno;
  out.exists = true;
  return 0;
}

/// "standard output", "standard error" or "descriptor N".
std::string descriptor_text(int fd) {
  if (fd == STDOUT_FILENO) return "standard output";
  if (fd == STDERR_FILENO) return "standard error";
  return "descriptor " + std::to_string(fd);
}

/// Follows `target` through symbolic links as open() would, and checks that the file it leads to
/// can be replaced by a rename in its directory (or, for a device or a pipe, written in place).
/// Returns 0, or the errno that says why not. `out.path` is the path reached so far.
int inspect(const std::string& target, Destination& out) {
  out.path = target;
  if (const std::optional<int> fd = named_descriptor(target)) return inspect_descriptor(descriptor_behind(*fd), out);
  // A device or a pipe is written in place through its name; stat() follows the links that lead
  // to no path (/proc/self/fd/N -> pipe:[...]), which the loop below cannot.
  struct stat followed {};
  if (::stat(target.c_str(), &followed) == 0 && !S_ISREG(followed.st_mode) && !S_ISDIR(followed.st_mode)) {
    out.exists = true;
    out.status = followed;
    return can_write(target, W_OK) ? 0 : errno;
  }
  for (int links = 0;; ++links) {
    struct stat status {};
    if (::lstat(out.path.c_str(), &status) != 0) {
      if (errno != ENOENT) return errno;
      break;  // a new file: its directory is checked below
    }
    if (!S_ISLNK(status.st_mode)) {
      out.exists = true;
      out.status = status;
      break;
    }
    if (links == max_symbolic_links) return ELOOP;
    std::error_code error;
    const fs::path link = fs::read_symlink(out.path, error);
    if (error) return error.value();
    out.path = link.is_absolute() ? link.string() : (fs::path(out.path).parent_path() / link).string();
  }
  if (out.exists) {
    if (S_ISDIR(out.status.st_mode)) return EISDIR;
    // Refuse to replace a file its owner made read-only for us, as writing into it would.
    if (!can_write(out.path, W_OK)) return errno;
    if (!S_ISREG(out.status.st_mode)) return 0;  // written in place: its directory does not matter
  }
  const std::string directory = fs::path(out.path).parent_path().string();
  const std::string where = directory.empty() ? "." : directory;
  out.directory = where;
  struct stat directory_status {};
  if (::stat(where.c_str(), &directory_status) != 0) return errno;
  if (!S_ISDIR(directory_status.st_mode)) return ENOTDIR;
  // Root passes the access checks below in /proc and /sys, where creating the temporary then
  // fails with a reason that names no cause ("No such file or directory").
  struct statfs file_system {};
  if (::statfs(where.c_str(), &file_system) == 0) {
    if (const char* name = kernel_interface_name(static_cast<long>(file_system.f_type))) {
      out.file_system = name;
      return kernel_interface;
    }
  }
  if (!can_write(where, W_OK | X_OK)) return errno;
  // In a sticky directory (/tmp) only the owners of the file or the directory may replace it.
  const uid_t user = ::geteuid();
  if (out.exists && (directory_status.st_mode & S_ISVTX) && user != 0 && out.status.st_uid != user &&
      directory_status.st_uid != user) {
    return EPERM;
  }
  return 0;
}

/// Writes all of `data`; 0 or the errno of the failure.
int write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (written == 0) return EIO;
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  return 0;
}

/// The process's umask, read by setting it and putting it back (the command line is
/// single-threaded, so nothing creates a file in between).
mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

/// The temporaries of the OutputFiles open, by name, for remove_temporary_outputs() to unlink
/// from a signal handler: fixed storage and lock-free states, which a handler may read.
constexpr std::size_t max_registered_temporaries = 32;
enum SlotState : int { slot_free, slot_filling, slot_ready };
struct TemporarySlot {
  std::atomic<int> state{slot_free};
  std::array<char, 4096> path{};  // PATH_MAX
};
std::array<TemporarySlot, max_registered_temporaries> temporary_slots;
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler reads the slots' states");

/// Registers `path`; the slot's index, or -1 when the name is too long or every slot is taken
/// (the temporary then goes only with its OutputFile).
int register_temporary(const std::string& path) noexcept {
  if (path.size() >= TemporarySlot{}.path.size()) return -1;
  for (std::size_t i = 0; i < temporary_slots.size(); ++i) {
    int expected = slot_free;
    if (!temporary_slots[i].state.compare_exchange_strong(expected, slot_filling)) continue;
    std::memcpy(temporary_slots[i].path.data(), path.c_str(), path.size() + 1);
    temporary_slots[i].state.store(slot_ready);
    return static_cast<int>(i);
  }
  return -1;
}

void unregister_temporary(int slot) noexcept {
  if (slot >= 0) temporary_slots[static_cast<std::size_t>(slot)].state.store(slot_free);
}

/// Six characters for a temporary's name, as mkstemp's XXXXXX become.
std::string random_suffix() {
  static constexpr std::string_view letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::array<unsigned char, 6> bytes{};
  if (::getrandom(bytes.data(), bytes.size(), GRND_NONBLOCK) != static_cast<ssize_t>(bytes.size())) {
    static unsigned long counter = 0;
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    unsigned long mixed = static_cast<unsigned long>(now.tv_nsec) ^ (static_cast<unsigned long>(::getpid()) << 20) ^
                          (++counter * 0x9E3779B97F4A7C15ul);
    for (unsigned char& byte : bytes) {
      byte = static_cast<unsigned char>(mixed);
      mixed = mixed >> 8 | mixed << 56;
    }
  }
  std::string suffix;
  for (const unsigned char byte : bytes) suffix += letters[byte % letters.size()];
  return suffix;
}

}  // namespace

void remove_temporary_outputs() noexcept {
  for (TemporarySlot& slot : temporary_slots) {
    if (slot.state.load() == slot_ready) ::unlink(slot.path.data());
  }
}

std::optional<int> named_descriptor(std::string_view path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  constexpr std::string_view descriptors = "/dev/fd/";
  if (!path.starts_with(descriptors)) return std::nullopt;
  const std::string_view number = path.substr(descriptors.size());
  int fd = -1;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), fd);
  if (number.empty() || error != std::errc() || end != number.data() + number.size() || fd < 0) return std::nullopt;
  return fd;
}

bool names_standard_output(std::string_view path) { return named_descriptor(path) == STDOUT_FILENO; }

void reserve_standard_output_for_outputs() {
  if (reserved_standard_output >= 0) return;
  std::fflush(stdout);
  // Above the standard descriptors, and not inherited by gnuplot.
  const int copy = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  if (copy < 0) return;  // standard output is closed: the outputs naming it fail with the reason
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    ::close(copy);
    return;
  }
  reserved_standard_output = copy;
}

std::string quoted_path(std::string_view path) {
  std::string out = "'";
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(byte));
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "'";
}

void check_output_path(std::string_view option, const std::string& path) {
  if (path.empty()) throw UsageError(std::string(option) + ": empty file name");
  Destination destination;
  if (const int error = inspect(path, destination)) {
    throw UsageError(std::string(option) + ": cannot write " + quoted_path(path) + ": " +
                     refusal_text(error, destination));
  }
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  struct Output {
    const std::string* option;
    const std::string* path;
    fs::path key;  ///< absolute, lexically normal, symbolic links followed
    bool exists;
  };
  std::vector<Output> files;
  std::vector<std::pair<const std::string*, int>> descriptors;  // (option, descriptor)
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    if (const std::optional<int> fd = named_descriptor(path)) {
      for (const auto& [other_option, other_fd] : descriptors) {
        if (other_fd == *fd) {
          throw UsageError(*other_option + " and " + option + " both write to " + descriptor_text(*fd));
        }
      }
      descriptors.emplace_back(&option, *fd);
      continue;
    }
    Destination destination;
    inspect(path, destination);  // errors are check_output_path's to report; the path reached is enough here
    if (destination.exists && !S_ISREG(destination.status.st_mode) && !S_ISDIR(destination.status.st_mode)) continue;
    std::error_code error;
    const fs::path absolute = fs::absolute(destination.path, error);
    files.push_back({&option, &path, (error ? fs::path(destination.path) : absolute).lexically_normal(),
                     destination.exists});
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = i + 1; j < files.size(); ++j) {
      std::error_code error;
      const bool same = files[i].key == files[j].key ||
                        (files[i].exists && files[j].exists && fs::equivalent(files[i].key, files[j].key, error));
      if (same) {
        throw UsageError(*files[i].option + " and " + *files[j].option + " name the same file " +
                         quoted_path(*files[j].path));
      }
    }
  }
}

OutputFile::OutputFile(std::string target) : target_(std::move(target)) {
  if (target_.empty()) fail(ENOENT);
  Destination destination;
  if (const int error = inspect(target_, destination)) {
    throw energy_audit::Error("cannot write " + quoted_path(target_) + ": " + refusal_text(error, destination));
  }
  destination_ = destination.path;
  if (const std::optional<int> fd = named_descriptor(target_)) {
    fd_ = ::fcntl(descriptor_behind(*fd), F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) fail(errno);
    return;
  }
  if (destination.exists && !S_ISREG(destination.status.st_mode)) {
    // A device or a pipe holds no file to leave half-written, and renaming over /dev/null
    // would replace the device: write into it.
    fd_ = ::open(destination_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) fail(errno);
    return;
  }
  const fs::path path(destination_);
  std::string name = ".";  // appended, not "." + ...: g++ 12 warns falsely (-Wrestrict) on that
  name.append(path.filename().string(), 0, max_name_in_temporary);
  name.append(".");
  // The name is registered before the file exists, so that a signal handler's
  // remove_temporary_outputs() finds every temporary that exists (mkostemp would name it only
  // after creating it).
  for (int attempt = 0;; ++attempt) {
    std::string temporary = (path.parent_path() / (name + random_suffix())).string();
    slot_ = register_temporary(temporary);
    fd_ = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd_ >= 0) {
      temporary_ = std::move(temporary);
      break;
    }
    const int error = errno;
    unregister_temporary(std::exchange(slot_, -1));
    if (error != EEXIST || attempt == 100) fail(error);
  }
  // The temporary is created 0600; the committed file gets the mode a plain open() would leave.
  const mode_t mode = destination.exists ? (destination.status.st_mode & 0777) : (0666 & ~current_umask());
  if (::fchmod(fd_, mode) != 0) {
    const int error = errno;
    discard();
    fail(error);
  }
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : target_(std::move(other.target_)),
      destination_(std::move(other.destination_)),
      temporary_(std::exchange(other.temporary_, {})),
      buffer_(std::move(other.buffer_)),
      fd_(std::exchange(other.fd_, -1)),
      slot_(std::exchange(other.slot_, -1)) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    discard();
    target_ = std::move(other.target_);
    destination_ = std::move(other.destination_);
    temporary_ = std::exchange(other.temporary_, {});
    buffer_ = std::move(other.buffer_);
    fd_ = std::exchange(other.fd_, -1);
    slot_ = std::exchange(other.slot_, -1);
  }
  return *this;
}

OutputFile::~OutputFile() { discard(); }

void OutputFile::write(std::string_view text) {
  if (fd_ < 0) throw energy_audit::Error("cannot write " + quoted_path(target_) + ": the file is closed");
  if (buffer_.size() + text.size() > buffer_capacity) flush();
  if (text.size() >= buffer_capacity) {
    if (const int error = write_all(fd_, text)) fail(error);
    return;
  }
  if (buffer_.capacity() < buffer_capacity) buffer_.reserve(buffer_capacity);
  buffer_.append(text);
}

int OutputFile::descriptor() {
  if (fd_ < 0) throw energy_audit::Error("cannot write " + quoted_path(target_) + ": the file is closed");
  flush();
  return fd_;
}

void OutputFile::commit() {
  if (fd_ < 0) throw energy_audit::Error("cannot write " + quoted_path(target_) + ": the file is closed");
  flush();
  // close() reports write-back errors of some file systems (NFS, quotas); Linux frees the
  // descriptor even when it is interrupted, so EINTR is no failure.
  if (::close(std::exchange(fd_, -1)) != 0 && errno != EINTR) fail(errno);
  if (temporary_.empty()) return;  // written in place
  if (::rename(temporary_.c_str(), destination_.c_str()) != 0) fail(errno);
  unregister_temporary(std::exchange(slot_, -1));
  temporary_.clear();
}

void OutputFile::flush() {
  if (buffer_.empty()) return;
  const int error = write_all(fd_, buffer_);
  buffer_.clear();
  if (error) fail(error);
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  unregister_temporary(std::exchange(slot_, -1));
  temporary_.clear();
  buffer_.clear();
}

void OutputFile::fail(int error) const {
  throw energy_audit::Error("cannot write " + quoted_path(target_) + ": " + std::strerror(error));
}

}  // namespace energy_audit::cli
