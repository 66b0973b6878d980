// Runs of an MJCF model under the MuJoCo audit: one run, the diagnosis ladder, the advice ladder.
#include "energy_audit/mujoco/mujoco_run.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numbers>
#include <sstream>
#include <utility>

#include "energy_audit/error.hpp"
#include "mujoco_handles.hpp"

namespace energy_audit::mujoco {
namespace {

/// The shortest text that reads back to the same double.
std::string shortest(double value) {
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc() ? std::string(buffer, end) : to_text(value);
}

/// `text` in single quotes, control characters written as \xNN: a message stays on one line.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned char>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "'";
}

/// MuJoCo's message on one line: runs of white space (its newlines) as one space.
std::string one_line(const char* message) {
  std::string out;
  bool space = false;
  for (const char* c = message; *c != '\0'; ++c) {
    if (std::isspace(static_cast<unsigned char>(*c))) {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out += *c;
    }
  }
  return out;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A finite number, the whole of `text`; absent otherwise.
std::optional<double> finite_number(std::string_view text) {
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;  // from_chars refuses a leading '+'
  const auto [end, error] = std::from_chars(first, last, value);
  if (first == last || error != std::errc() || end != last || !std::isfinite(value)) return std::nullopt;
  return value;
}

/// Keeps MuJoCo's warnings (a reset of a bad state, ...) off the terminal and out of
/// MUJOCO_LOG.TXT while a run or a load goes: the audit reports what they mean. The handler that
/// was installed before is restored.
class QuietWarnings {
 public:
  QuietWarnings() : previous_(mju_user_warning) { mju_user_warning = &ignore; }
  ~QuietWarnings() { mju_user_warning = previous_; }
  QuietWarnings(const QuietWarnings&) = delete;
  QuietWarnings& operator=(const QuietWarnings&) = delete;

 private:
  static void ignore(const char*) {}
  void (*previous_)(const char*);
};

using detail::DataPointer;
using detail::ModelPointer;

/// Steps of `h` to cover `t_end`: t_end / h rounded up, unless it is within 1e-9 of a whole number.
double step_count(double t_end, double h) {
  const double ratio = t_end / h;
  const double nearest = std::round(ratio);
  return std::abs(ratio - nearest) <= 1e-9 * std::max(1.0, nearest) ? std::max(1.0, nearest) : std::ceil(ratio);
}

/// A positive finite setting; InvalidArgument naming it otherwise.
void check_positive(const std::string& name, double value, const char* what) {
  if (!(value > 0) || !std::isfinite(value)) {
    throw InvalidArgument(name + ": " + what + " must be positive and finite; it is " + to_text(value));
  }
}

/// The entries of the ledger with the largest |work|, at most `count`, none of work 0:
/// "damping shoulder -0.401 J, damping elbow -0.119 J".
std::string largest_entries(const std::vector<LedgerEntry>& ledger, std::size_t count) {
  std::vector<LedgerEntry> sorted;
  for (const LedgerEntry& e : ledger) {
    if (e.work != 0) sorted.push_back(e);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const LedgerEntry& a, const LedgerEntry& b) { return std::abs(a.work) > std::abs(b.work); });
  std::string text;
  for (std::size_t i = 0; i < sorted.size() && i < count; ++i) {
    char work[32];
    std::snprintf(work, sizeof work, "%+.4g J", sorted[i].work);
    text += (text.empty() ? "" : ", ") + sorted[i].name + " " + work;
  }
  return text;
}

std::string g_text(double value, const char* spec = "%.3g") {
  char text[48];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

/// The order δ_C fell at from `coarse` to `fine`; NaN where it cannot be read.
double observed_order(const MujocoRung& coarse, const MujocoRung& fine) {
  const auto usable = [](const MujocoRunResult& r) {
    return (r.verdict == "pass" || r.verdict == "fail") && r.delta_C > 0 && std::isfinite(r.delta_C);
  };
  if (!usable(coarse.run) || !usable(fine.run)) return std::nan("");
  return std::log(coarse.run.delta_C / fine.run.delta_C) / std::log(coarse.timestep / fine.timestep);
}

}  // namespace

double ControlSetting::value(double t) const {
  if (!sinusoid) return offset;
  return offset + amplitude * std::sin(2 * std::numbers::pi * frequency * t + phase);
}

std::string ControlSetting::text() const {
  if (!sinusoid) return actuator + "=" + shortest(offset);
  return actuator + "=sin:" + shortest(amplitude) + "," + shortest(frequency) + "," + shortest(phase) + "," +
         shortest(offset);
}

ControlSetting parse_control(std::string_view text, const std::string& option) {
  const std::string syntax = "NAME=VALUE or NAME=sin:AMPLITUDE,FREQUENCY_HZ[,PHASE_RAD[,OFFSET]]";
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0) {
    throw InvalidArgument(option + ": " + quoted(text) + " is not " + syntax);
  }
  ControlSetting control;
  control.actuator = std::string(text.substr(0, equals));
  const std::string_view value = text.substr(equals + 1);
  if (!value.starts_with("sin:")) {
    const std::optional<double> number = finite_number(value);
    if (!number) {
      throw InvalidArgument(option + ": " + control.actuator + "=" + quoted(value) +
                            ": the control is not a finite number (" + syntax + ")");
    }
    control.offset = *number;
    return control;
  }
  control.sinusoid = true;
  std::vector<double> numbers;
  std::string_view rest = value.substr(4);
  const char* names[] = {"AMPLITUDE", "FREQUENCY_HZ", "PHASE_RAD", "OFFSET"};
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view field = rest.substr(0, comma);
    if (numbers.size() == 4) {
      throw InvalidArgument(option + ": " + quoted(text) + ": a sinusoid takes at most 4 numbers (" + syntax + ")");
    }
    const std::optional<double> number = finite_number(field);
    if (!number) {
      throw InvalidArgument(option + ": " + quoted(text) + ": " + names[numbers.size()] + " = " + quoted(field) +
                            " is not a finite number (" + syntax + ")");
    }
    numbers.push_back(*number);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (numbers.size() < 2) {
    throw InvalidArgument(option + ": " + quoted(text) + ": a sinusoid needs AMPLITUDE and FREQUENCY_HZ (" + syntax +
                          ")");
  }
  if (numbers[1] < 0) {
    throw InvalidArgument(option + ": " + quoted(text) + ": FREQUENCY_HZ must not be negative");
  }
  control.amplitude = numbers[0];
  control.frequency = numbers[1];
  if (numbers.size() > 2) control.phase = numbers[2];
  if (numbers.size() > 3) control.offset = numbers[3];
  return control;
}

mjtIntegrator integrator_from_name(std::string_view name, const std::string& option) {
  const std::string lower = lowercase(name);
  if (lower == "euler") return mjINT_EULER;
  if (lower == "rk4") return mjINT_RK4;
  if (lower == "implicit") return mjINT_IMPLICIT;
  throw InvalidArgument(option + ": " + quoted(name) + " is not an integrator of MuJoCo " + mj_versionString() +
                        " (euler, rk4, implicit)");
}

const char* integrator_name(int integrator) {
  switch (integrator) {
    case mjINT_EULER: return "Euler";
    case mjINT_RK4: return "RK4";
    case mjINT_IMPLICIT: return "implicit";
    default: return "unknown";
  }
}

int integrator_order(int integrator) { return integrator == mjINT_RK4 ? 4 : 1; }

struct MujocoRunner::Loaded {
  MujocoRunSettings settings;
  ModelPointer model;
  mjtIntegrator integrator = mjINT_EULER;
  std::vector<int> control_ids;  ///< of settings.controls
};

MujocoRunner::MujocoRunner(MujocoRunSettings settings) : loaded_(std::make_unique<Loaded>()) {
  const MujocoSettingNames& names = settings.names;
  const std::string& file = settings.model_file;
  if (file.empty()) throw InvalidArgument(names.model_file + ": no model file given");
  struct stat status {};
  const auto cannot_read = [&](int error) {
    return InvalidArgument(names.model_file + ": cannot read " + quoted(file) + ": " + std::strerror(error));
  };
  if (::stat(file.c_str(), &status) != 0) throw cannot_read(errno);
  if (S_ISDIR(status.st_mode)) throw cannot_read(EISDIR);
  if (std::FILE* f = std::fopen(file.c_str(), "rb")) {
    std::fclose(f);
  } else {
    throw cannot_read(errno);
  }
  {
    const QuietWarnings quiet;
    char error[1000] = "";
    loaded_->model.reset(mj_loadXML(file.c_str(), nullptr, error, sizeof error));
    if (!loaded_->model) {
      throw InvalidArgument(names.model_file + ": MuJoCo " + mj_versionString() + " does not load " + quoted(file) +
                            ": " + (error[0] != '\0' ? one_line(error) : std::string("no reason given")));
    }
  }
  const mjModel* m = loaded_->model.get();
  if (settings.t_end) check_positive(names.t_end, *settings.t_end, "the interval");
  settings.t_end = settings.t_end.value_or(default_t_end);
  if (settings.timestep) check_positive(names.timestep, *settings.timestep, "the timestep");
  settings.timestep = settings.timestep.value_or(m->opt.timestep);
  loaded_->integrator = settings.integrator ? integrator_from_name(*settings.integrator, names.integrator)
                                            : static_cast<mjtIntegrator>(m->opt.integrator);
  settings.integrator = integrator_name(loaded_->integrator);
  check_positive(names.threshold, settings.threshold, "the threshold");
  const double steps = step_count(*settings.t_end, *settings.timestep);
  if (steps > max_steps) {
    throw InvalidArgument(names.timestep + ": " + to_text(*settings.timestep) + " takes " + to_text(steps) +
                          " steps to " + names.t_end + " " + to_text(*settings.t_end) + "; a run takes at most 1e9");
  }
  const std::vector<std::string> actuators = actuator_names();
  for (std::size_t i = 0; i < settings.controls.size(); ++i) {
    const ControlSetting& control = settings.controls[i];
    const int id = mj_name2id(m, mjOBJ_ACTUATOR, control.actuator.c_str());
    if (id < 0) {
      std::string known;
      for (const std::string& name : actuators) known += (known.empty() ? "" : ", ") + name;
      throw InvalidArgument(names.control + ": " + quoted(file) + " has no actuator " + quoted(control.actuator) +
                            (actuators.empty() ? std::string(" (it has no actuators)") : " (its actuators: " + known + ")"));
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (loaded_->control_ids[j] == id) {
        throw InvalidArgument(names.control + ": actuator " + control.actuator + " is given twice (" +
                              settings.controls[j].text() + ", " + control.text() + "); give it once");
      }
    }
    loaded_->control_ids.push_back(id);
  }
  loaded_->settings = std::move(settings);
}

MujocoRunner::MujocoRunner(MujocoRunner&&) noexcept = default;
MujocoRunner& MujocoRunner::operator=(MujocoRunner&&) noexcept = default;
MujocoRunner::~MujocoRunner() = default;

const MujocoRunSettings& MujocoRunner::settings() const { return loaded_->settings; }
const mjModel* MujocoRunner::model() const { return loaded_->model.get(); }

std::vector<std::string> MujocoRunner::actuator_names() const {
  const mjModel* m = model();
  std::vector<std::string> names;
  for (int i = 0; i < m->nu; ++i) {
    const char* name = mj_id2name(m, mjOBJ_ACTUATOR, i);
    if (name != nullptr && name[0] != '\0') {
      names.emplace_back(name);
    } else {
      names.push_back(std::to_string(i));  // unnamed: by its index
      names.back().insert(0, 1, '#');
    }
  }
  return names;
}

MujocoRunResult MujocoRunner::run_at(double timestep, double threshold, std::size_t store_every,
                                     const MujocoHooks& hooks, std::size_t run_index, std::size_t runs) const {
  const QuietWarnings quiet;
  const MujocoRunSettings& s = loaded_->settings;
  mjModel* m = loaded_->model.get();
  m->opt.timestep = timestep;
  m->opt.integrator = loaded_->integrator;
  const DataPointer data(mj_makeData(m));
  if (!data) throw Error("MuJoCo could not allocate the mjData of " + quoted(s.model_file));
  mjData* d = data.get();
  if (m->nkey > 0) mj_resetDataKeyframe(m, d, 0);

  MujocoRunResult r;
  r.model_file = s.model_file;
  r.model_name = m->names;  // the model's name comes first
  r.integrator = integrator_name(loaded_->integrator);
  r.timestep = timestep;
  r.t0 = d->time;
  r.t_end = d->time + *s.t_end;
  r.steps = static_cast<long>(step_count(*s.t_end, timestep));
  r.controls = s.controls;
  r.threshold = threshold;

  const auto started = std::chrono::steady_clock::now();
  MujocoAudit audit(m, d, MujocoAuditOptions{threshold, s.count_passive_callback, store_every});
  bool interrupted = false;
  double t_reached = d->time;
  constexpr long progress_every = 4096;
  for (long i = 0; i < r.steps; ++i) {
    if (stop_requested(hooks.stop)) {
      interrupted = true;
      break;
    }
    for (std::size_t c = 0; c < s.controls.size(); ++c) {
      d->ctrl[loaded_->control_ids[c]] = s.controls[c].value(d->time);
    }
    audit.step(m, d);
    ++r.steps_taken;
    if (std::strcmp(audit.verdict(), "diverged") == 0) break;  // MuJoCo reset the state: nothing more to audit
    t_reached = d->time;
    if (hooks.progress && (i + 1) % progress_every == 0) {
      hooks.progress(MujocoProgress{run_index, runs, i + 1, r.steps, d->time, false});
    }
  }
  audit.finish(m, d);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  r.t_reached = t_reached;
  r.verdict = interrupted ? "interrupted" : audit.verdict();
  r.delta_C = audit.relative_drift();
  r.max_abs_drift = audit.max_abs_drift();
  r.energy_scale = audit.energy_scale();
  r.time_first_above_threshold = audit.time_first_above_threshold();
  r.energy_change = audit.energy_change();
  r.unexplained_work = audit.unexplained_work();
  r.uncounted_passive_work = audit.uncounted_passive_work();
  r.ledger = audit.ledger();
  r.contact_pairs = audit.contact_pairs();
  r.diagnosis = audit.diagnosis();
  if (store_every > 0) {
    const Audit& a = audit.audit();
    const std::size_t e = a.layout().energy_offset();
    const auto add = [&](std::span<const double> row) {
      r.history.push_back({row[0], row[e + 0], row[e + 4], row[e + 5], row[e + 7], row[e + 8]});
    };
    const History& history = a.history();
    for (std::size_t i = 0; i < history.rows(); ++i) add(history.row(i));
    const std::span<const double> last = a.last_row();
    if (!last.empty() && (r.history.empty() || r.history.back().t != last[0])) add(last);
  }
  if (hooks.progress) hooks.progress(MujocoProgress{run_index, runs, r.steps_taken, r.steps, t_reached, true});
  return r;
}

MujocoRunResult MujocoRunner::run(const MujocoHooks& hooks) const {
  const MujocoRunSettings& s = loaded_->settings;
  return run_at(*s.timestep, s.threshold, s.store_every, hooks, 0, 1);
}

MujocoDiagnosis MujocoRunner::diagnose(std::size_t levels, const MujocoHooks& hooks) const {
  const MujocoRunSettings& s = loaded_->settings;
  if (levels < 3 || levels > 12) {
    throw InvalidArgument(s.names.levels + ": the ladder takes 3 to 12 rungs; " + std::to_string(levels) + " given");
  }
  const double finest = *s.timestep / std::ldexp(1.0, static_cast<int>(levels) - 1);
  if (step_count(*s.t_end, finest) > max_steps) {
    throw InvalidArgument(s.names.levels + ": the finest rung, timestep " + to_text(finest) + ", takes more than 1e9 steps to " +
                          s.names.t_end + " " + to_text(*s.t_end));
  }
  MujocoDiagnosis dg;
  dg.integrator = integrator_name(loaded_->integrator);
  dg.expected_order = integrator_order(loaded_->integrator);
  dg.threshold = s.threshold;
  dg.observed_order = std::nan("");
  for (std::size_t i = 0; i < levels; ++i) {
    MujocoRung rung;
    rung.timestep = *s.timestep / std::ldexp(1.0, static_cast<int>(i));
    rung.run = run_at(rung.timestep, s.threshold, 0, hooks, i, levels);
    rung.observed_order = dg.rungs.empty() ? std::nan("") : observed_order(dg.rungs.back(), rung);
    dg.rungs.push_back(std::move(rung));
    if (dg.rungs.back().run.interrupted()) break;
  }
  const std::string order_name = std::string(dg.integrator) + "'s order: " + std::to_string(dg.expected_order);
  if (dg.rungs.back().run.interrupted()) {
    dg.verdict = "interrupted";
    dg.finding = "interrupted at timestep " + to_text(dg.rungs.back().timestep) + ", rung " +
                 std::to_string(dg.rungs.size()) + " of " + std::to_string(levels);
    dg.what_to_do = "run it again to the end";
    return dg;
  }
  dg.observed_order = dg.rungs.back().observed_order;
  const auto diverged = std::find_if(dg.rungs.begin(), dg.rungs.end(), [](const MujocoRung& r) { return r.run.diverged(); });
  const MujocoRunResult& first = dg.rungs.front().run;
  const MujocoRung& last = dg.rungs.back();
  if (diverged != dg.rungs.end()) {
    dg.verdict = "diverged";
    dg.finding = "at timestep " + to_text(diverged->timestep) + ": " + diverged->run.diagnosis;
    const auto stable = std::find_if(diverged, dg.rungs.end(), [](const MujocoRung& r) { return !r.run.diverged(); });
    if (stable != dg.rungs.end()) {
      dg.what_to_do = "the timestep is past " + dg.integrator + "'s stability: timestep " + to_text(stable->timestep) +
                      " runs (delta_C " + g_text(stable->run.delta_C) + ", " + stable->run.verdict +
                      "); advise finds the largest that meets a target";
    } else {
      dg.what_to_do = "no rung down to timestep " + to_text(last.timestep) +
                      " runs: the model itself diverges, or needs a far smaller timestep";
    }
    return dg;
  }
  const bool falls = last.observed_order >= 0.5;
  const std::string order_text = std::isnan(last.observed_order) ? std::string("not measured")
                                                                  : g_text(last.observed_order, "%.2f");
  if (first.passed()) {
    const bool energy_changed = std::abs(first.energy_change) > s.threshold * first.energy_scale;
    if (energy_changed) {
      dg.verdict = "explained loss";
      const std::string entries = largest_entries(first.ledger, 3);
      dg.finding = "the energy changed by " + g_text(first.energy_change, "%+.4g") + " J at timestep " +
                   to_text(first.timestep) + " and the ledger accounts for it" +
                   (entries.empty() ? std::string() : ": " + entries) + "; unexplained " +
                   g_text(first.unexplained_work, "%+.3g") + " J (delta_C " + g_text(first.delta_C) + ")";
      dg.what_to_do = "nothing: the change is the model's own (its dampers, motors, contacts), not the step's";
    } else {
      dg.verdict = "within threshold";
      dg.finding = "delta_C " + g_text(first.delta_C) + " at timestep " + to_text(first.timestep) +
                   " is within the threshold; it falls at order " + order_text + " (" + order_name + ")";
      dg.what_to_do = "nothing: timestep " + to_text(first.timestep) + " meets the threshold";
    }
    return dg;
  }
  if (falls) {
    dg.verdict = "step error";
    const double p = last.observed_order;
    dg.suggested_timestep = last.timestep * std::pow(s.threshold / last.run.delta_C, 1.0 / p);
    dg.finding = "delta_C falls with the timestep at order " + order_text + " (" + order_name + ")" +
                 (p < dg.expected_order - 0.5
                      ? std::string(": below it, a force that is not smooth over a step (contacts, limits) sets the order")
                      : std::string());
    dg.what_to_do = "a timestep of about " + g_text(*dg.suggested_timestep) +
                    " meets the threshold (extrapolated at order " + order_text +
                    "); advise with " + s.names.target + " " + to_text(s.threshold) + " finds it by runs";
    return dg;
  }
  dg.verdict = "unexplained plateau";
  dg.finding = "delta_C stays at " + g_text(last.run.delta_C) + " from timestep " + to_text(first.timestep) + " to " +
               to_text(last.timestep) + " (order " + order_text + "): C drifts by " +
               g_text(last.run.unexplained_work, "%+.4g") + " J that no smaller step removes";
  if (last.run.uncounted_passive_work != 0) {
    dg.finding += "; qfrc_passive holds a force that is neither spring, damper nor fluid (a passive callback?) whose work " +
                  g_text(last.run.uncounted_passive_work, "%+.4g") + " J is not counted";
  }
  dg.what_to_do = "a force acts that the ledger does not see (a passive callback, a plugin): a smaller timestep will not help";
  return dg;
}

MujocoAdvice MujocoRunner::advise(double target, const MujocoHooks& hooks) const {
  const MujocoRunSettings& s = loaded_->settings;
  check_positive(s.names.target, target, "the target");
  MujocoAdvice advice;
  advice.integrator = integrator_name(loaded_->integrator);
  advice.target = target;
  advice.base_timestep = *s.timestep;
  constexpr int largest = 3, smallest = -8;
  for (int k = largest; k >= smallest; --k) {
    MujocoRung rung;
    rung.timestep = std::ldexp(*s.timestep, k);
    if (step_count(*s.t_end, rung.timestep) > max_steps) {
      advice.finding = "timestep " + to_text(rung.timestep) + " would take more than 1e9 steps; ";
      break;
    }
    rung.run = run_at(rung.timestep, target, 0, hooks, static_cast<std::size_t>(largest - k), 0);
    rung.observed_order = advice.rungs.empty() ? std::nan("") : observed_order(advice.rungs.back(), rung);
    advice.rungs.push_back(std::move(rung));
    const MujocoRunResult& run = advice.rungs.back().run;
    if (run.interrupted()) {
      advice.interrupted = true;
      advice.finding = "interrupted at timestep " + to_text(advice.rungs.back().timestep);
      return advice;
    }
    if (run.passed()) {
      advice.timestep = advice.rungs.back().timestep;
      advice.finding = "timestep " + to_text(*advice.timestep) + " (" + to_text(*s.timestep) + " x 2^" + std::to_string(k) +
                       ") meets the target: delta_C " + g_text(run.delta_C) + " <= " + to_text(target);
      return advice;
    }
  }
  const auto best = std::min_element(advice.rungs.begin(), advice.rungs.end(), [](const MujocoRung& a, const MujocoRung& b) {
    const double da = a.run.diverged() ? INFINITY : a.run.delta_C, db = b.run.diverged() ? INFINITY : b.run.delta_C;
    return da < db;
  });
  advice.finding += "no timestep from " + to_text(std::ldexp(*s.timestep, largest)) + " down to " +
                    to_text(advice.rungs.empty() ? *s.timestep : advice.rungs.back().timestep) + " meets the target " +
                    to_text(target);
  if (best != advice.rungs.end() && !best->run.diverged()) {
    advice.finding += "; the smallest delta_C, " + g_text(best->run.delta_C) + ", at timestep " + to_text(best->timestep) +
                      " (diagnose tells why)";
  }
  return advice;
}

MujocoRunResult run_mujoco(const MujocoRunSettings& settings, const MujocoHooks& hooks) {
  return MujocoRunner(settings).run(hooks);
}

}  // namespace energy_audit::mujoco
