#include "plots.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

#include <energy_audit/error.hpp>

#include "number_text.hpp"
#include "usage_error.hpp"

extern char** environ;

namespace energy_audit::cli {
namespace {

const char* const not_found = "gnuplot not found: install the Debian package gnuplot-nox to draw ";

/// A gnuplot string literal: single-quoted, where gnuplot substitutes neither backquotes nor
/// macros, with ' doubled. A line break would end gnuplot's command: it is joined in as the
/// expression "\n" ('a'."\n".'b', a title of two lines), and other control characters become
/// spaces.
std::string literal(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\'') {
      out += "''";
    } else if (c == '\n') {
      out += "'.\"\\n\".'";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// Shortest text that reads back as `value`, whatever the locale.

/// "1e-3", "2.5e-4": how a threshold reads in a legend.
std::string short_scientific(double value) {
  const std::string text = printf_text("%.6e", value);
  const std::size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  if (mantissa.find('.') != std::string::npos) {
    mantissa.erase(mantissa.find_last_not_of('0') + 1);
    if (mantissa.back() == '.') mantissa.pop_back();
  }
  const int exponent = std::atoi(text.c_str() + e + 1);
  return exponent == 0 ? mantissa : mantissa + "e" + std::to_string(exponent);
}

bool drawable(double value) { return std::isfinite(value) && value > 0; }

/// Colours told apart also by colour-blind readers (Okabe and Ito), without the yellow that
/// vanishes on white.
constexpr std::array<const char*, 8> colours{"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                             "#E69F00", "#56B4E9", "#000000", "#999999"};
constexpr std::array<int, 6> point_types{7, 5, 9, 11, 13, 15};  // filled circle, square, triangles, diamond, pentagon

/// The k-th of several lines on one set of axes: its colour, then its dash type once the
/// colours are used up, so no two of 40 lines look alike.
std::string line_style(std::size_t k) {
  return "lc rgb '" + std::string(colours[k % colours.size()]) + "' dt " + std::to_string(k / colours.size() % 5 + 1);
}

/// Restores SIGPIPE's disposition on leaving the scope that ignores it.
class SigpipeIgnored {
 public:
  SigpipeIgnored() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~SigpipeIgnored() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  SigpipeIgnored(const SigpipeIgnored&) = delete;
  SigpipeIgnored& operator=(const SigpipeIgnored&) = delete;

 private:
  struct sigaction previous_ {};
};

[[noreturn]] void cannot_run(int error) { throw Error(std::string("cannot run gnuplot: ") + std::strerror(error)); }

/// A close-on-exec copy of `fd` numbered 3 or more. gnuplot's file actions put the pipes and
/// the image on 0, 1 and 2; sources above those cannot be overwritten by one another, even when
/// this process runs with a standard descriptor closed.
int copy_above_standard(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) cannot_run(errno);
  return copy;
}

/// A descriptor closed on destruction.
struct Descriptor {
  int fd;
  explicit Descriptor(int descriptor) : fd(descriptor) {}
  ~Descriptor() { ::close(fd); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
};

/// Both ends of a pipe, numbered 3 or more, closed on exec and on destruction.
struct Pipe {
  int read = -1;
  int write = -1;
  Pipe() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) cannot_run(errno);
    read = ends[0];
    write = ends[1];
    for (int* end : {&read, &write}) {
      if (*end < 3) {
        const int low = *end;
        *end = ::fcntl(low, F_DUPFD_CLOEXEC, 3);
        ::close(low);
        if (*end < 0) cannot_run(errno);
      }
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read >= 0) ::close(std::exchange(read, -1));
  }
  void close_write() {
    if (write >= 0) ::close(std::exchange(write, -1));
  }
};

/// posix_spawn's file actions and attributes, destroyed on leaving the scope.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

/// Whether `line` is one of gnuplot's own messages: `line 12: ...` or `"-" line 12: ...`.
bool numbered(const std::string& line) {
  std::size_t at = 0;
  if (!line.empty() && line[0] == '"') {
    at = line.find("\" ", 1);
    if (at == std::string::npos) return false;
    at += 2;
  }
  if (line.compare(at, 5, "line ") != 0) return false;
  std::size_t digits = at + 5;
  while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') ++digits;
  return digits > at + 5 && digits < line.size() && line[digits] == ':';
}

/// The line of gnuplot's stderr that says what went wrong: the first numbered message that is
/// not a warning (gnuplot echoes the command and a caret before it), else the first warning,
/// else the first line that is not blank or a caret.
std::string gnuplot_message(const std::string& errors) {
  std::string error_line, warning_line, other_line;
  std::size_t start = 0;
  while (start < errors.size()) {
    std::size_t end = errors.find('\n', start);
    if (end == std::string::npos) end = errors.size();
    std::string line = errors.substr(start, end - start);
    start = end + 1;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    line = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
    if (line.find_first_not_of("^ \t") == std::string::npos) continue;
    const bool warning = line.find("warning:") != std::string::npos || line.find("Warning:") != std::string::npos;
    if (numbered(line) && !warning && error_line.empty()) error_line = line;
    if (warning && warning_line.empty()) warning_line = line;
    if (other_line.empty()) other_line = line;
  }
  std::string message = !error_line.empty() ? error_line : !warning_line.empty() ? warning_line : other_line;
  for (char& c : message) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return message;
}

/// Runs gnuplot on `script` with the image going to `png`: no shell, no file name in the script.
void run_gnuplot(const std::string& script, OutputFile& png) {
  const int image = png.descriptor();
  Pipe input, errors;
  const Descriptor image_copy{copy_above_standard(image)};
  SpawnSetup setup;
  for (const auto& [from, to] : {std::pair{input.read, STDIN_FILENO}, std::pair{image_copy.fd, STDOUT_FILENO},
                                 std::pair{errors.write, STDERR_FILENO}}) {
    if (const int error = posix_spawn_file_actions_adddup2(&setup.actions, from, to)) cannot_run(error);
  }
  // gnuplot starts with SIGPIPE at its default and nothing blocked, whatever this process does.
  sigset_t defaults, unblocked;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&unblocked);
  posix_spawnattr_setsigdefault(&setup.attributes, &defaults);
  posix_spawnattr_setsigmask(&setup.attributes, &unblocked);
  posix_spawnattr_setflags(&setup.attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

  char program[] = "gnuplot";
  char* const argv[] = {program, nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, program, &setup.actions, &setup.attributes, argv, environ);
  if (spawned == ENOENT) throw Error(std::string(not_found) + quoted_path(png.target()));
  if (spawned != 0) cannot_run(spawned);
  input.close_read();
  errors.close_write();

  // The script goes in while gnuplot's messages come out: waiting on either pipe alone could
  // block both processes once the other pipe is full. A gnuplot that exits early closes its
  // input; the write then fails with EPIPE instead of killing this process.
  const SigpipeIgnored sigpipe_ignored;
  ::fcntl(input.write, F_SETFL, ::fcntl(input.write, F_GETFL) | O_NONBLOCK);
  std::string messages;
  constexpr std::size_t max_messages = 64 * 1024;
  std::size_t sent = 0;
  if (script.empty()) input.close_write();
  while (input.write >= 0 || errors.read >= 0) {
    pollfd watched[2] = {{input.write, POLLOUT, 0}, {errors.read, POLLIN, 0}};
    if (::poll(watched, 2, -1) < 0) {
      if (errno == EINTR) continue;
      input.close_write();  // gnuplot sees the end of its script and exits
      errors.close_read();
      break;
    }
    if (watched[0].revents != 0) {
      const ssize_t written = ::write(input.write, script.data() + sent, script.size() - sent);
      if (written > 0) sent += static_cast<std::size_t>(written);
      if ((written < 0 && errno != EAGAIN && errno != EINTR) || sent == script.size()) input.close_write();
    }
    if (watched[1].revents != 0) {
      char chunk[4096];
      const ssize_t got = ::read(errors.read, chunk, sizeof chunk);
      if (got > 0 && messages.size() < max_messages) messages.append(chunk, static_cast<std::size_t>(got));
      if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) errors.close_read();
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw Error(std::string("cannot wait for gnuplot: ") + std::strerror(errno));
  }

  const std::string failed = "gnuplot failed to draw " + quoted_path(png.target()) + ": ";
  if (WIFSIGNALED(status)) throw Error(failed + "killed by signal " + std::to_string(WTERMSIG(status)));
  if (WEXITSTATUS(status) != 0) {
    const std::string message = gnuplot_message(messages);
    throw Error(failed + (message.empty() ? "exit status " + std::to_string(WEXITSTATUS(status)) : message));
  }
  struct stat written {};
  if (::fstat(image, &written) == 0 && S_ISREG(written.st_mode) && written.st_size == 0) {
    throw Error(failed + "it wrote no image");
  }
}

/// "[1e-12:1e-2]": the whole decades around [low, high] (at least one), for a log axis.
std::string decades(double low, double high) {
  const double first = std::floor(std::log10(low));
  const double last = std::max(std::ceil(std::log10(high)), first + 1);
  std::string range = "[";  // appended, not "[" + ...: g++ 12 warns falsely (-Wrestrict) on that
  range += shortest_text(std::pow(10.0, first));
  range += ":";
  range += shortest_text(std::pow(10.0, last));
  return range + "]";
}

/// The terminal of the format `image`'s name names, `width` × `height` pixels (a PDF as many
/// points), writing to stdout (no `set output`), names drawn as they are (noenhanced).
std::string terminal(const OutputFile& image, int width, int height) {
  const std::string pixels = std::to_string(width) + "," + std::to_string(height);
  switch (format_of_name(image.target()).value_or(FigureFormat::Png)) {
    case FigureFormat::Svg:
      return "set terminal svg size " + pixels + " noenhanced font 'sans,10' background '#ffffff'\n";
    case FigureFormat::Pdf:
      return "set terminal pdfcairo size " + shortest_text(width / 72.0) + "in," + shortest_text(height / 72.0) +
             "in noenhanced font ',10'\n";
    case FigureFormat::Png:
      break;
  }
  return "set terminal pngcairo size " + pixels + " noenhanced font ',10'\n";
}

/// A key inside the frame at `where` ("top left"), boxed and opaque, so that it stays readable
/// where it covers a curve.
std::string key_inside(const std::string& where) {
  return "set key inside " + where + " opaque box lc rgb '#999999' samplen 2 spacing 1.1\n";
}

/// `name` << EOD ... EOD with the points a log scale can show in y (and in x when `log_x`).
std::string datablock(const std::string& name, const std::vector<std::pair<double, double>>& points, bool log_x) {
  std::string block = name + " << EOD\n";
  for (const auto& [x, y] : points) {
    if (!std::isfinite(x) || (log_x && !(x > 0)) || !drawable(y)) continue;
    block += shortest_text(x) + " " + shortest_text(y) + "\n";
  }
  return block + "EOD\n";
}

/// Names in order of first appearance, with the indices of their items.
template <class Item>
std::vector<std::pair<std::string, std::vector<std::size_t>>> group_by_method(const std::vector<Item>& items) {
  std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto [where, added] = index.try_emplace(items[i].method, groups.size());
    if (added) groups.push_back({items[i].method, {}});
    groups[where->second].second.push_back(i);
  }
  return groups;
}

}  // namespace

void require_gnuplot(std::string_view option) {
  // The search posix_spawnp makes: PATH, or the system's default path when PATH is unset; an
  // empty entry is the current directory.
  std::string path;
  if (const char* variable = std::getenv("PATH")) {
    path = variable;
  } else {
    path.resize(::confstr(_CS_PATH, nullptr, 0));
    ::confstr(_CS_PATH, path.data(), path.size());
    path.resize(std::strlen(path.c_str()));
  }
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string directory = end == start ? "." : path.substr(start, end - start);
    const std::string candidate = directory + "/gnuplot";
    struct stat status {};
    if (::stat(candidate.c_str(), &status) == 0 && S_ISREG(status.st_mode) &&
        ::faccessat(AT_FDCWD, candidate.c_str(), X_OK, AT_EACCESS) == 0) {
      return;
    }
    start = end + 1;
  }
  throw Error(not_found + std::string(option));
}

std::optional<FigureFormat> format_of_name(std::string_view path) {
  if (named_descriptor(path)) return FigureFormat::Png;
  const std::string_view name = path.substr(path.find_last_of('/') + 1);
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos || dot == 0) return FigureFormat::Png;  // "plot", ".hidden"
  std::string extension(name.substr(dot + 1));
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == "png") return FigureFormat::Png;
  if (extension == "svg") return FigureFormat::Svg;
  if (extension == "pdf") return FigureFormat::Pdf;
  return std::nullopt;
}

FigureFormat figure_format(std::string_view option, std::string_view path) {
  if (const std::optional<FigureFormat> format = format_of_name(path)) return *format;
  throw UsageError(std::string(option) + ": cannot draw " + quoted_path(path) +
                   ": name the figure .png, .svg or .pdf (the format it is drawn in)");
}

void plot_work_precision(OutputFile& png, const std::string& title, const std::vector<WorkPrecisionPoint>& points,
                         double threshold) {
  std::string data, plot;
  std::size_t drawn = 0;
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  for (const auto& [method, indices] : group_by_method(points)) {
    std::vector<std::pair<double, double>> xy;
    std::vector<std::pair<std::string, int>> verdicts;  // in order of first appearance
    for (std::size_t i : indices) {
      if (drawable(points[i].rhs_evaluations) && drawable(points[i].delta_C)) {
        xy.emplace_back(points[i].rhs_evaluations, points[i].delta_C);
        x_min = std::min(x_min, points[i].rhs_evaluations);
        x_max = std::max(x_max, points[i].rhs_evaluations);
        y_min = std::min(y_min, points[i].delta_C);
        y_max = std::max(y_max, points[i].delta_C);
        const auto counted = std::ranges::find(verdicts, points[i].verdict, &std::pair<std::string, int>::first);
        if (counted == verdicts.end()) {
          verdicts.emplace_back(points[i].verdict, 1);
        } else {
          ++counted->second;
        }
      }
    }
    if (xy.empty()) continue;
    std::string label = method;
    for (std::size_t v = 0; v < verdicts.size(); ++v) {
      if (verdicts[v].first.empty()) continue;
      label += (v == 0 ? ": " : ", ") + verdicts[v].first + " " + std::to_string(verdicts[v].second);
    }
    const std::string name = "$m" + std::to_string(drawn);
    data += datablock(name, xy, true);
    plot += (drawn ? ", " : "plot ") + name + " with linespoints " + line_style(drawn) + " pt " +
            std::to_string(point_types[drawn % point_types.size()]) + " ps 1.2 lw 1.5 title " + literal(label);
    ++drawn;
  }
  if (drawn == 0) throw Error("nothing to plot: no finished run with delta_C > 0");
  if (drawable(threshold)) {
    plot += ", " + shortest_text(threshold) + " with lines lc rgb 'black' dt 2 lw 1.5 title " +
            literal("threshold " + short_scientific(threshold));
    y_min = std::min(y_min, threshold);
    y_max = std::max(y_max, threshold);
  }
  // Whole decades in x: the threshold line, sampled over the x range, then spans the frame. In y
  // whole decades too, with room above the highest line (the threshold on a decade would
  // otherwise lie on the frame's top edge).
  const std::string script = terminal(png, 1000, 700) + "set title " + literal(title) + "\n" +
                             "set grid\n" + key_inside("bottom left") + "set logscale xy\nset format y '%.0e'\n"
                             "set xlabel 'right-hand-side evaluations'\nset ylabel 'delta_C'\n" +
                             "set xrange " + decades(x_min, x_max) + "\n" + "set yrange " + decades(y_min, 3 * y_max) +
                             "\n" + data + plot + "\n";
  run_gnuplot(script, png);
}

namespace {
/// A datablock of the curve's marks of `kind`, "t value" at the curve's point nearest each such
/// mark's time; empty when none can be drawn.
std::string mark_datablock(const std::string& name, const DriftCurve& curve, const std::string& kind) {
  std::string rows;
  for (const auto& [t, label] : curve.marks) {
    if (label != kind) continue;
    const auto nearest = std::ranges::min_element(curve.points, {}, [t](const auto& point) {
      return std::abs(point.first - t);
    });
    if (!std::isfinite(t) || nearest == curve.points.end() || !drawable(nearest->second)) continue;
    rows += shortest_text(nearest->first) + " " + shortest_text(nearest->second) + "\n";
  }
  return rows.empty() ? rows : name + " << EOD\n" + rows + "EOD\n";
}

/// The shapes of the kinds of marks, open so that the curve shows through: circle, triangle,
/// square, diamond.
constexpr std::array<int, 4> mark_point_types{6, 8, 4, 12};
}  // namespace

void plot_control_drift(OutputFile& png, const std::string& title, const std::vector<DriftCurve>& curves) {
  // One panel per method: 18 or 26 curves on one set of axes cannot be told apart by colour, and
  // the runs of one method (its steps or rtols) are the ones a reader compares line by line;
  // the panels share their axes, so methods compare by position. Within a panel, line_style
  // keeps up to 40 runs distinct.
  double t_min = INFINITY, t_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  std::string data;
  std::vector<bool> has_data(curves.size(), false);
  std::vector<std::string> kinds;  // the kinds of marks, in order of first appearance
  for (std::size_t c = 0; c < curves.size(); ++c) {
    for (const auto& [t, value] : curves[c].points) {
      if (!std::isfinite(t) || !drawable(value)) continue;
      has_data[c] = true;
      t_min = std::min(t_min, t);
      t_max = std::max(t_max, t);
      y_min = std::min(y_min, value);
      y_max = std::max(y_max, value);
    }
    if (has_data[c]) data += datablock("$r" + std::to_string(c), curves[c].points, false);
    for (const auto& mark : curves[c].marks) {
      if (std::ranges::find(kinds, mark.second) == kinds.end()) kinds.push_back(mark.second);
    }
  }
  // marks[c][k]: whether curve c has a datablock of marks of kind k ($mC_K).
  std::vector<std::vector<bool>> has_marks(curves.size(), std::vector<bool>(kinds.size(), false));
  for (std::size_t c = 0; c < curves.size(); ++c) {
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      const std::string marks = mark_datablock("$m" + std::to_string(c) + "_" + std::to_string(k), curves[c], kinds[k]);
      has_marks[c][k] = !marks.empty();
      data += marks;
    }
  }
  if (!(y_max > 0)) throw Error("nothing to plot: no run has |C(t) - C(t0)| > 0");
  if (!(t_max > t_min)) t_max = t_min + 1;

  const auto groups = group_by_method(curves);
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(groups.size()))));
  const int rows = static_cast<int>((groups.size() + static_cast<std::size_t>(columns) - 1) / static_cast<std::size_t>(columns));
  // Two decades of room above the highest curve for the key, which sits inside the frame.
  std::string script = terminal(png, std::max(1000, 560 * columns), std::max(700, 420 * rows)) +
                       "set logscale y\nset format x '%g'\nset format y '%.0e'\nset grid\n" + key_inside("top left") +
                       "set xlabel 't [s]'\nset ylabel '|C(t) - C(t0)| [J]'\n"
                       "set xrange [" + shortest_text(t_min) + ":" + shortest_text(t_max) + "]\n"
                       "set yrange " + decades(y_min, 100 * y_max) + "\n" +
                       data + "set multiplot layout " + std::to_string(rows) + "," + std::to_string(columns) +
                       " title " + literal(title) + "\n";
  for (const auto& [method, indices] : groups) {
    script += "set title " + literal(method) + "\n";
    std::string marks;
    std::vector<bool> kind_shown(kinds.size(), false);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const std::size_t c = indices[k];
      const std::string source = has_data[c] ? "$r" + std::to_string(c) : "NaN";
      std::string label = curves[c].label;
      if (!curves[c].summary.empty()) label += ": " + curves[c].summary;
      if (!has_data[c]) label += " (nothing > 0)";
      script += (k ? ", " : "plot ") + source + " with lines " + line_style(k) + " lw 1.5 title " + literal(label);
      for (std::size_t kind = 0; kind < kinds.size(); ++kind) {
        if (!has_marks[c][kind]) continue;
        marks += ", $m" + std::to_string(c) + "_" + std::to_string(kind) + " with points " + line_style(k) + " pt " +
                 std::to_string(mark_point_types[kind % mark_point_types.size()]) + " ps 1.6 lw 2 notitle";
        kind_shown[kind] = true;
      }
    }
    // Each kind of mark once in the key, in black: the shape tells the kind, the colour the run.
    for (std::size_t kind = 0; kind < kinds.size(); ++kind) {
      if (!kind_shown[kind]) continue;
      marks += ", NaN with points lc rgb 'black' pt " + std::to_string(mark_point_types[kind % mark_point_types.size()]) +
               " ps 1.6 lw 2 title " + literal(kinds[kind]);
    }
    script += marks + "\n";
  }
  script += "unset multiplot\n";
  run_gnuplot(script, png);
}

void plot_time_series(OutputFile& png, const std::string& title, const std::vector<TimeSeriesPanel>& panels) {
  std::string script = terminal(png, 1000, std::max(500, 330 * static_cast<int>(panels.size()))) + "set grid\n" +
                       key_inside("top left") + "set format x '%g'\nset format y '%g'\nset xlabel 't [s]'\n" +
                       "set lmargin at screen 0.09\nset rmargin at screen 0.97\n" +  // the panels' t axes aligned
                       "set offsets 0, 0, graph 0.35, graph 0.05\n" +  // room for the key above the curves
                       "set multiplot layout " + std::to_string(panels.size()) + ",1 title " + literal(title) + "\n";
  // The marks' styles: black and orange-red, dashed and dotted, told apart from the curves' solid lines.
  static constexpr std::array<const char*, 4> mark_styles{"lc rgb '#000000' dt 2", "lc rgb '#D55E00' dt 3",
                                                          "lc rgb '#555555' dt 4", "lc rgb '#CC79A7' dt 5"};
  std::size_t block = 0;
  for (const TimeSeriesPanel& panel : panels) {
    std::string data, plot;
    for (std::size_t k = 0; k < panel.series.size(); ++k) {
      const std::string name = "$s" + std::to_string(block++);
      data += name + " << EOD\n";
      bool any = false;
      for (const auto& [t, value] : panel.series[k].points) {
        if (!std::isfinite(t) || !std::isfinite(value)) continue;
        data += shortest_text(t) + " " + shortest_text(value) + "\n";
        any = true;
      }
      data += "EOD\n";
      if (!any) throw Error("nothing to plot in '" + panel.title + "': " + panel.series[k].label + " has no finite point");
      plot += (k ? ", " : "plot ") + name + " with lines " + line_style(k) + " lw 1.5 title " +
              literal(panel.series[k].label);
    }
    // Each mark a vertical line across the frame, named in the key with its time: labels in the
    // frame would overprint one another at near times.
    std::string arrows;
    std::size_t drawn_marks = 0;
    for (const auto& [t, label] : panel.marks) {
      if (!std::isfinite(t)) continue;
      const std::string style = mark_styles[drawn_marks++ % mark_styles.size()];
      arrows += "set arrow from " + shortest_text(t) + ", graph 0 to " + shortest_text(t) + ", graph 1 nohead lw 1.5 " +
                style + "\n";
      plot += ", NaN with lines lw 1.5 " + style + " title " + literal(label + ", t = " + printf_text("%.4g", t) + " s");
    }
    script += data + "set title " + literal(panel.title) + "\nset ylabel " + literal(panel.y_label) + "\n" + arrows +
              plot + "\nunset arrow\n";
  }
  script += "unset multiplot\n";
  run_gnuplot(script, png);
}

/// sign(k) log10(1 + |k| / scale): linear within |k| of about `scale`, logarithmic beyond, so
/// that gains near 0 and gains of large magnitude both show on one axis.
double symmetric_log(double k, double scale) { return std::copysign(std::log10(1 + std::abs(k) / scale), k); }

/// `set xtics` of a symmetric-log axis over [k_min, k_max]: 0 and ±1, ±10, ... from `scale` on.
std::string symmetric_log_tics(double k_min, double k_max, double scale) {
  std::string tics;
  const auto add = [&](double k) {
    if (k < k_min || k > k_max) return;
    tics += (tics.empty() ? "" : ", ") + literal(shortest_text(k)) + " " + shortest_text(symmetric_log(k, scale));
  };
  add(0);
  const double largest = std::max(std::abs(k_min), std::abs(k_max));
  for (double decade = std::pow(10.0, std::ceil(std::log10(scale))); decade <= largest; decade *= 10) {
    add(-decade);
    add(decade);
  }
  return "set xtics (" + tics + ")\n";
}

void plot_verdict_map(OutputFile& png, const std::string& title, const std::vector<StabilityPanel>& panels) {
  if (panels.empty()) throw Error("nothing to plot: the map has no run");
  static const std::vector<std::pair<std::string, std::string>> verdict_colours{
      {"stable", "#1a9850"}, {"neutral", "#4575b4"}, {"drifting", "#fdae61"}, {"unstable", "#d73027"}};
  double k_min = INFINITY, k_max = -INFINITY, tau_min = INFINITY, tau_max = -INFINITY;
  for (const StabilityPanel& panel : panels) {
    for (const StabilityPanel::Point& p : panel.points) {
      k_min = std::min(k_min, p.k);
      k_max = std::max(k_max, p.k);
      tau_min = std::min(tau_min, p.tau);
      tau_max = std::max(tau_max, p.tau);
    }
  }
  if (!(k_max > k_min)) k_max = k_min + 1;
  std::vector<double> taus;
  for (const StabilityPanel& panel : panels) {
    for (const StabilityPanel::Point& p : panel.points) {
      if (std::find(taus.begin(), taus.end(), p.tau) == taus.end()) taus.push_back(p.tau);
    }
  }
  // A lower boundary lies near the linear limit z*/tau, far from 0, an upper one near 0: k runs
  // on a symmetric-log axis, linear within the spacing of the map's gains.
  std::vector<double> gains;
  for (const StabilityPanel& panel : panels) {
    for (const StabilityPanel::Point& p : panel.points) gains.push_back(p.k);
  }
  std::sort(gains.begin(), gains.end());
  double scale = INFINITY;
  for (std::size_t i = 1; i < gains.size(); ++i) {
    if (gains[i] > gains[i - 1]) scale = std::min(scale, gains[i] - gains[i - 1]);
  }
  if (!std::isfinite(scale)) scale = std::max(1.0, std::abs(k_min));
  const auto x = [scale](double k) { return symmetric_log(k, scale); };
  const std::string scale_text = printf_text("%.3g", scale);
  std::string tics = "set ytics (";
  for (std::size_t i = 0; i < taus.size(); ++i) tics += (i ? ", " : "") + literal(shortest_text(taus[i])) + " " + shortest_text(taus[i]);
  tics += ")\n";
  const int columns = panels.size() > 1 ? 2 : 1;
  const int rows = static_cast<int>((panels.size() + 1) / static_cast<std::size_t>(columns));
  // The key inside each frame, in a band above the points (up to 2.5 tau_max on the log axis).
  std::string script = terminal(png, std::max(1000, 620 * columns), std::max(500, 380 * rows)) +
                       "set logscale y\nset format y '%g'\nset format x '%g'\nset grid\n" +
                       key_inside("top center horizontal maxrows 2") +
                       "set xlabel " +
                       literal(std::string("k [1/s], symmetric log scale: linear within |k| < ") + scale_text) +
                       "\nset ylabel 'tau [s] (first start below, second above)'\n" +
                       symmetric_log_tics(k_min, k_max, scale) +
                       "set xrange [" + shortest_text(x(k_min)) + ":" + shortest_text(x(k_max)) + "]\n"
                       "set yrange [" + shortest_text(tau_min * 0.8) + ":" + shortest_text(tau_max * 2.5) + "]\n" + tics +
                       "set multiplot layout " + std::to_string(rows) + "," + std::to_string(columns) + " title " +
                       literal(title) + "\n";
  std::size_t block = 0;
  for (const StabilityPanel& panel : panels) {
    std::vector<std::string> starts;
    for (const StabilityPanel::Point& p : panel.points) {
      if (std::find(starts.begin(), starts.end(), p.start) == starts.end()) starts.push_back(p.start);
    }
    std::string data, plot;
    const auto add_block = [&](const std::vector<std::pair<double, double>>& points, const std::string& style,
                               const std::string& label) {
      if (points.empty()) return;
      const std::string name = "$v" + std::to_string(block++);
      data += datablock(name, points, false);
      plot += (plot.empty() ? "plot " : ", ") + name + " " + style + " title " + literal(label);
    };
    for (const auto& [verdict, colour] : verdict_colours) {
      std::vector<std::pair<double, double>> points;
      for (const StabilityPanel::Point& p : panel.points) {
        if (p.verdict != verdict) continue;
        const auto index = std::find(starts.begin(), starts.end(), p.start) - starts.begin();
        points.emplace_back(x(p.k), p.tau * (index == 0 ? 0.93 : 1.07));
      }
      add_block(points, "with points pt 5 ps 0.4 lc rgb '" + colour + "'", verdict);
    }
    std::vector<std::pair<double, double>> other;
    for (const StabilityPanel::Point& p : panel.points) {
      const bool known = std::any_of(verdict_colours.begin(), verdict_colours.end(),
                                     [&](const auto& vc) { return vc.first == p.verdict; });
      if (!known) other.emplace_back(x(p.k), p.tau);
    }
    add_block(other, "with points pt 5 ps 0.4 lc rgb 'grey'", "error");
    const auto drawn = [&](const std::vector<std::pair<double, double>>& limit) {
      std::vector<std::pair<double, double>> points;
      for (const auto& [k, tau] : limit) points.emplace_back(x(k), tau);
      return points;
    };
    add_block(drawn(panel.lower_limit), "with linespoints lw 2 lc rgb 'black' dt 2", "linear limit z*/tau");
    add_block(drawn(panel.upper_limit), "with linespoints lw 2 lc rgb 'black' dt 3", "linear limit -d/tau");
    if (plot.empty()) throw Error("nothing to plot for " + panel.method);
    script += data + "set title " + literal(panel.method) + "\n" + plot + "\n";
  }
  script += "unset multiplot\n";
  run_gnuplot(script, png);
}

void plot_phase_portrait(OutputFile& png, const std::string& title, const std::string& x_label,
                         const std::string& y_label, const std::vector<TimeSeries>& curves) {
  std::string data, plot;
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const std::string name = "$p" + std::to_string(k);
    data += name + " << EOD\n";
    bool any = false;
    for (const auto& [x, y] : curves[k].points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      data += shortest_text(x) + " " + shortest_text(y) + "\n";
      any = true;
    }
    data += "EOD\n";
    if (!any) throw Error("nothing to plot in '" + title + "': " + curves[k].label + " has no finite point");
    // Wider lines first: curves that coincide (two methods at a small step) all stay visible.
    const double width = std::max(1.0, 3.5 - 1.5 * static_cast<double>(k));
    plot += (k ? ", " : "plot ") + name + " with lines " + line_style(k) + " lw " + shortest_text(width) + " title " +
            literal(curves[k].label);
  }
  const std::string script = terminal(png, 900, 700) + "set grid\n" + key_inside("top right") +
                             "set format x '%g'\nset format y '%g'\nset title " + literal(title) + "\nset xlabel " +
                             literal(x_label) + "\nset ylabel " + literal(y_label) + "\n" + data + plot + "\n";
  run_gnuplot(script, png);
}

}  // namespace energy_audit::cli
