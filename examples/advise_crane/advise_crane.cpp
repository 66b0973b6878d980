// Which method, at which step, audits the trolley crane to δ_C ≤ 1e-6 for the least work? advise
// finds each method's largest step (loosest rtol) that meets the target and recommends the one
// whose answer took the fewest right-hand-side evaluations.
#include <cstdio>
#include <vector>

#include <energy_audit/studies/model_entry.hpp>
#include <energy_audit/studies/run_pool.hpp>
#include <energy_audit/studies/step_advisor.hpp>
#include <energy_audit/sundials/cvodes_methods.hpp>  // CVODES' methods (EnergyAudit::studies_sundials)

#include "crane.hpp"  // the example models (EnergyAudit::models)
namespace studies = energy_audit::studies;
using Methods = studies::MethodFamilies<studies::FixedStepFamily, energy_audit::sun::CvodesMethods>;  // rk4, ...

int main() {
  const studies::ModelEntry crane =
      studies::make_entry<energy_audit::examples::Crane, Methods>("crane", "the trolley crane");
  studies::AdviceSettings settings;
  settings.target = 1e-6;  // δ_C
  const std::vector<studies::Method> methods{Methods::find("rk4"), Methods::find("cvode-bdf")};
  const studies::RunPool pool(2);  // two threads; the advice equals a serial one, run by run
  const studies::Advice advice = studies::advise(crane, {}, methods, settings, pool);
  for (const studies::MethodAdvice& m : advice.methods) {
    if (m.answer) std::printf("%-10s %-4s %.4g: delta_C = %.3g, %zu rhs evaluations\n", m.method.c_str(),
                              m.adaptive ? "rtol" : "h", m.answer->resolution, m.answer->delta_C,
                              m.answer->rhs_evaluations);
  }
  if (!advice.recommended) return std::puts("recommended: none"), 1;
  const studies::MethodAdvice& best = advice.methods[*advice.recommended];
  std::printf("recommended: %s at %s %.4g\n", best.method.c_str(), best.adaptive ? "rtol" : "step",
              best.answer->resolution);
}
