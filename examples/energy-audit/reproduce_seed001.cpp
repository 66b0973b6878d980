#include "reproduce_seed001.hpp"

#include <cstdio>
#include <ostream>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/stability_map.hpp>

#include "example_models.hpp"
#include "number_text.hpp"

namespace energy_audit::cli {
namespace {

constexpr double paper_step = 0.002;  // seed 001's tau

/// The verdicts of `method` at gain k from both starts of the ellipse, as "on_constraint stable, perturbed stable".
struct Verdicts {
  std::string text;
  bool all_are(const std::string& verdict) const { return every == verdict; }
  std::string every;  ///< the common verdict, empty when they differ
};

Verdicts verdicts_at(const KinematicEntry& ellipse, const std::string& method, double k, const StopRequest* stop) {
  Verdicts v;
  bool first = true;
  for (const auto& [name, start] : ellipse.starts) {
    ModelSetup setup;
    setup.parameters = {{"k", k}};
    setup.initial_values = start;
    KinematicSettings settings;
    settings.method = find_method(method);
    settings.step = paper_step;
    settings.stop = stop;
    const std::string verdict = ellipse.run(setup, settings).verdict();
    v.text += (first ? "" : ", ") + name + " " + verdict;
    v.every = first ? verdict : (v.every == verdict ? verdict : "");
    first = false;
  }
  return v;
}

std::string run_command(const std::string& method, double k) {
  return "energy-audit run ellipse --set k=" + printf_text("%g", k) + " --method " + method + " --step 0.002 [--init x=1.05]";
}

}  // namespace

std::vector<ClaimCheck> check_seed001_claims(const RunPool& pool, const StopRequest* stop) {
  const KinematicEntry& ellipse = *find_kinematic_model("ellipse");
  const std::vector<std::string> methods{"euler", "rk2", "rk3", "rk4"};
  std::vector<ClaimCheck> checks;
  const auto per_method = [&](const std::string& claim, double k, const std::string& expected,
                              const std::vector<std::string>& which) {
    for (const std::string& method : which) {
      if (stop_requested(stop)) return;
      const Verdicts v = verdicts_at(ellipse, method, k, stop);
      checks.push_back({claim + " (" + method + ")", v.text, v.all_are(expected), run_command(method, k)});
    }
  };
  per_method("k > 0 is unstable for every method: k = 2", 2.0, "unstable", methods);
  per_method("k = -2 is stable", -2.0, "stable", methods);
  per_method("k = -400 at tau = 0.002 is unstable with Euler", -400.0, "unstable", {"euler"});
  per_method("k = -400 at tau = 0.002 is stable with Runge-Kutta", -400.0, "stable", {"rk2", "rk3", "rk4"});
  if (stop_requested(stop)) return checks;

  // Euler's interval at tau = 0.002: the operational boundaries of both starts, and linear theory.
  StabilityMapSettings settings;
  settings.methods = {find_method("euler")};
  settings.steps = {paper_step};
  settings.stop = stop;
  const StabilityMap map = compute_stability_map(ellipse, settings, pool);
  if (map.interrupted || map.summaries.empty()) return checks;
  const MethodStepSummary& euler = map.summaries.front();
  std::string computed = "linear theory " + printf_text("%.6g", euler.linear.lower) + " < k < " + printf_text("%.3g", euler.linear.upper);
  bool agrees = true;
  for (const StartBoundaries& b : euler.starts) {
    computed += "; " + b.start + ": |f| <= 1 for ";
    if (b.lower && b.upper) {
      computed += printf_text("%.6g", b.lower->first_unstable) + " < k < " + printf_text("%.4g", b.upper->first_unstable);
      agrees = agrees && std::abs(b.lower->first_unstable + 359.6) < 0.1 && std::abs(b.upper->first_unstable + 0.5) < 0.1;
    } else {
      computed += "no boundary found";
      agrees = false;
    }
  }
  checks.push_back({"Euler at tau = 0.002 is stable for -359.6 < k < -0.5", computed, agrees,
                    "energy-audit stability ellipse --methods euler --steps 0.002 --k -1500:0.5:3"});
  return checks;
}

void print_claim_checks(std::ostream& out, const std::vector<ClaimCheck>& checks) {
  out << "seed 001, Example 1 (ellipse): the paper's claims beside what the runs here show\n"
         "(both starts: on_constraint (1, 0) and perturbed (1.05, 0); verdicts by the rules of "
         "docs/models.md, the ellipse)\n";
  for (const ClaimCheck& c : checks) {
    out << "\n" << (c.agrees ? "agrees:   " : "DIFFERS:  ") << c.claim << "\n"
        << "          computed: " << c.computed << "\n"
        << "          shown by: " << c.command << "\n";
  }
}

void write_claim_checks_csv(OutputFile& file, const std::vector<ClaimCheck>& checks) {
  const auto quoted = [](const std::string& field) {
    std::string q = "\"";
    for (char ch : field) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  file.write("claim,computed,agrees,command\n");
  for (const ClaimCheck& c : checks) {
    file.write(quoted(c.claim) + "," + quoted(c.computed) + "," + (c.agrees ? "true" : "false") + "," +
               quoted(c.command) + "\n");
  }
}

void write_claim_checks_json(OutputFile& file, const std::vector<ClaimCheck>& checks) {
  nlohmann::ordered_json j = nlohmann::ordered_json::array();
  for (const ClaimCheck& c : checks) {
    j.push_back({{"claim", c.claim}, {"computed", c.computed}, {"agrees", c.agrees}, {"command", c.command}});
  }
  file.write(j.dump(2) + "\n");
}

}  // namespace energy_audit::cli
