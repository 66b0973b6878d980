#include <energy_audit/studies/gain_range.hpp>

#include <cmath>
#include <cstddef>
#include <sstream>

#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

std::vector<double> GainRange::values() const {
  const auto count = static_cast<std::size_t>(std::floor((last - first) / step + 1e-9)) + 1;
  std::vector<double> gains(count);
  for (std::size_t i = 0; i < count; ++i) gains[i] = first + static_cast<double>(i) * step;
  return gains;
}

GainRange parse_gain_range(const std::string& text, const std::string& option) {
  GainRange range;
  std::istringstream in(text);
  char colon1 = 0, colon2 = 0;
  if (!(in >> range.first >> colon1 >> range.step >> colon2 >> range.last) || colon1 != ':' ||
      colon2 != ':' || !(in >> std::ws).eof() || !std::isfinite(range.first) || !std::isfinite(range.last) ||
      !std::isfinite(range.step)) {
    throw SettingsError(option + ": '" + text + "' is not FIRST:STEP:LAST (e.g. -1500:0.5:3)");
  }
  if (!(range.step > 0)) throw SettingsError(option + ": the step in '" + text + "' must be > 0");
  if (range.last < range.first) throw SettingsError(option + ": LAST in '" + text + "' is below FIRST");
  if ((range.last - range.first) / range.step > 1e6) {
    throw SettingsError(option + ": '" + text + "' gives more than a million gains");
  }
  return range;
}

}  // namespace energy_audit::studies
