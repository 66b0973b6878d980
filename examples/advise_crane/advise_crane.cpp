// Which method, at which step, audits the trolley crane (seed 002) to δ_C ≤ 1e-6 for the least
// work? The studies library's advise searches, for each method, the largest step (for an
// adaptive method, the loosest rtol) whose run meets the target, and recommends the method whose
// answer took the fewest right-hand-side evaluations.

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

#include <energy_audit/studies/methods.hpp>
#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/step_advisor.hpp>

#include "crane.hpp"

int main() {
  namespace studies = energy_audit::studies;
  // The entry of a model runs it by name with the studies; any DescribedModel makes one.
  const studies::ModelEntry crane =
      studies::make_entry<energy_audit::examples::Crane>("crane", "trolley crane of seed 002");

  studies::AdviceSettings settings;
  settings.target = 1e-6;  // δ_C
  const std::vector<studies::Method> methods{studies::find_method("rk4"), studies::find_method("rkg"),
                                             studies::find_method("cvode-bdf")};
  // The searches run side by side on the threads of this process; the advice equals a serial one.
  const studies::RunPool pool(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  const studies::Advice advice = studies::advise(crane, {}, methods, settings, pool);

  for (const studies::MethodAdvice& method : advice.methods) {
    if (method.answer) {
      std::printf("%-10s %s %-9.4g delta_C %.3g, %zu rhs evaluations\n", method.method.c_str(),
                  method.adaptive ? "rtol" : "h   ", method.answer->resolution, method.answer->delta_C,
                  method.answer->rhs_evaluations);
    } else {
      std::printf("%-10s none: %s\n", method.method.c_str(), method.note.c_str());
    }
  }
  if (!advice.recommended) {
    std::printf("recommended: none: no method met the target\n");
    return 1;
  }
  const studies::MethodAdvice& best = advice.methods[*advice.recommended];
  std::printf("recommended: %s with %s %.4g\n", best.method.c_str(), best.adaptive ? "rtol" : "step",
              best.answer->resolution);
  return 0;
}
