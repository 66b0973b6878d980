#include <energy_audit/studies/progress.hpp>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace energy_audit::studies {
namespace {

constexpr auto redraw_interval = std::chrono::milliseconds(200);


/// The columns of the terminal on standard error; 0 when it is not one (no limit).
std::size_t terminal_width() {
  winsize size{};
  if (isatty(STDERR_FILENO) == 0 || ioctl(STDERR_FILENO, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

}  // namespace

std::string duration_text(double seconds) {
  char text[32];
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
  }
  return text;
}

bool progress_shown(bool quiet, bool forced, bool leads) {
  if (!leads || quiet) return false;
  return forced || isatty(STDERR_FILENO) != 0;
}

ProgressLine::ProgressLine(bool shown, Sink sink) : shown_(shown), sink_(std::move(sink)) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::start(std::string what, std::size_t total, std::string unit, std::vector<std::string> counters) {
  if (!shown_) return;
  finish();
  const std::lock_guard lock(mutex_);
  open_stage(std::move(what), total, std::move(unit), std::move(counters));
  draw(true);
}

void ProgressLine::start_interval(std::string what, double t0, double t1) {
  if (!shown_) return;
  finish();
  const std::lock_guard lock(mutex_);
  open_stage(std::move(what), 0, "steps", {});
  over_interval_ = true;
  t0_ = t_ = t0;
  t1_ = t1;
  draw(true);
}

void ProgressLine::open_stage(std::string what, std::size_t total, std::string unit, std::vector<std::string> counters) {
  open_ = true;
  what_ = std::move(what);
  unit_ = std::move(unit);
  total_ = total;
  done_ = 0;
  over_interval_ = false;
  counters_.clear();
  for (std::string& name : counters) counters_.push_back({std::move(name)});
  started_ = Clock::now();
}

void ProgressLine::reach(std::size_t done, double t) {
  if (!shown_) return;
  const std::lock_guard lock(mutex_);
  if (!open_) return;
  done_ = done;
  t_ = t;
  draw(false);
}

void ProgressLine::advance(std::size_t count) {
  if (!shown_ || count == 0) return;
  const std::lock_guard lock(mutex_);
  if (!open_) return;
  done_ += count;
  draw(false);
}

void ProgressLine::count(std::size_t item) {
  if (!shown_) return;
  const std::lock_guard lock(mutex_);
  if (!open_ || item >= counters_.size()) return;
  ++counters_[item].count;
  draw(false);
}

void ProgressLine::set_count(std::size_t item, std::size_t count) {
  if (!shown_) return;
  const std::lock_guard lock(mutex_);
  if (open_ && item < counters_.size()) counters_[item].count = count;
}

void ProgressLine::close(std::size_t item) {
  if (!shown_) return;
  const std::lock_guard lock(mutex_);
  if (open_ && item < counters_.size()) counters_[item].closed = true;
}

void ProgressLine::finish() {
  if (!shown_) return;
  const std::lock_guard lock(mutex_);
  if (!open_) return;
  const std::string line = text(true);
  write("\r" + line + std::string(drawn_length_ > line.size() ? drawn_length_ - line.size() : 0, ' ') + "\n");
  open_ = false;
  drawn_length_ = 0;
}

void ProgressLine::draw(bool now_anyway) {
  const Clock::time_point now = Clock::now();
  if (!now_anyway && now - drawn_ < redraw_interval) return;
  drawn_ = now;
  std::string line = text(false);
  // A line longer than the terminal would wrap, and the carriage return would no longer reach
  // its start.
  if (!sink_) {
    if (const std::size_t width = terminal_width(); width > 1 && line.size() > width - 1) line.resize(width - 1);
  }
  const std::size_t padding = drawn_length_ > line.size() ? drawn_length_ - line.size() : 0;
  write("\r" + line + std::string(padding, ' '));
  drawn_length_ = line.size();
}

void ProgressLine::write(const std::string& text) {
  if (sink_) {
    sink_(text);
  } else {
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  }
}

std::string ProgressLine::text(bool final) const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - started_).count();
  if (over_interval_) {
    const double fraction = t1_ > t0_ ? (t_ - t0_) / (t1_ - t0_) : 1.0;
    char reached[96];
    std::snprintf(reached, sizeof reached, "t = %.6g of %.6g (%.0f%%), ", t_, t1_, 100 * fraction);
    std::string line = what_ + ": " + reached + std::to_string(done_) + " " + unit_ + ", " + duration_text(elapsed) +
                       (final ? "" : " elapsed");
    if (!final && fraction > 0 && fraction < 1) line += ", about " + duration_text(elapsed * (1 - fraction) / fraction) + " left";
    return line;
  }
  std::string line = what_ + ": " + std::to_string(done_);
  if (total_ > 0) line.append("/").append(std::to_string(total_));
  line.append(" ").append(unit_);
  if (counters_.empty()) {
    line += ", " + duration_text(elapsed) + (final ? "" : " elapsed");
    if (!final && total_ > 0 && done_ > 0 && done_ < total_) {
      line += ", about " + duration_text(elapsed * static_cast<double>(total_ - done_) / static_cast<double>(done_)) + " left";
    }
    return line;
  }
  // Searches of unknown length: the probes of each, no estimate.
  std::size_t probes = 0;
  std::string each;
  for (const Counter& c : counters_) {
    probes += c.count;
    if (final || (!c.closed && c.count > 0)) each += (each.empty() ? "" : ", ") + c.name + " " + std::to_string(c.count);
  }
  line += " done, " + std::to_string(probes) + " probes";
  if (final) return line + " (" + each + "), " + duration_text(elapsed);
  line += ", " + duration_text(elapsed) + " elapsed";
  if (!each.empty()) line += "; searching: " + each;
  return line;
}

}  // namespace energy_audit::studies
