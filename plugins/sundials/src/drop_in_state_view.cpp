#include "drop_in_state_view.hpp"

#include <energy_audit/error.hpp>
#include <set>
#include <string>

namespace energy_audit::sun::detail {

DropInStateView::Part DropInStateView::Part::of(const std::vector<long>& indices) {
  bool consecutive = true;
  for (std::size_t i = 1; i < indices.size(); ++i) consecutive = consecutive && indices[i] == indices[0] + static_cast<long>(i);
  if (consecutive && !indices.empty()) return Part::consecutive(indices[0]);
  return Part{0, indices, {}};
}

void DropInStateView::use(const DropInLayout& layout, const char* audit_name) {
  const auto refuse = [audit_name](const std::string& what) {
    throw InvalidArgument(std::string(audit_name) + ": the layout " + what);
  };
  const auto n = static_cast<std::size_t>(dofs_);
  if (layout.coordinates.size() != n || layout.velocities.size() != n) {
    refuse("lists " + std::to_string(layout.coordinates.size()) + " coordinates and " +
           std::to_string(layout.velocities.size()) + " velocities; the audit of " + std::to_string(dofs_) +
           " coordinates needs " + std::to_string(dofs_) + " of each");
  }
  if (layout.length < 0) refuse("has length " + std::to_string(layout.length) + "; it must be >= 0 (0: not checked)");
  std::set<long> seen;
  const auto check_part = [&](const std::vector<long>& indices, const char* part) {
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const long index = indices[i];
      const std::string where = std::string(part) + "[" + std::to_string(i) + "] = " + std::to_string(index);
      if (index < 0) refuse("has " + where + ", a negative index");
      if (layout.length > 0 && index >= layout.length) {
        refuse("has " + where + ", past the state's " + std::to_string(layout.length) + " entries");
      }
      if (!seen.insert(index).second) refuse("has " + where + ", an entry of y named twice");
    }
  };
  check_part(layout.coordinates, "coordinates");
  check_part(layout.velocities, "velocities");
  check_part(layout.multipliers, "multipliers");
  layout_ = layout;
  coordinates_ = Part::of(layout.coordinates);
  velocities_ = Part::of(layout.velocities);
  multipliers_ = Part::of(layout.multipliers);
  laid_out_ = true;
}

void DropInStateView::check(long length, bool multipliers, const char* audit_name, const char* solver) const {
  const std::string state = std::string(audit_name) + ": the " + solver + " state has " + std::to_string(length) +
                            " entries";
  if (!laid_out_) {
    const long needed = 2L * dofs_ + (multipliers ? 1 : 0);
    if (length < needed) {
      throw InvalidArgument(state + "; the audit of " + std::to_string(dofs_) + " coordinates needs y = [q, v" +
                            (multipliers ? ", multipliers" : "") + "], at least " + std::to_string(needed));
    }
    return;
  }
  if (layout_.length > 0 && layout_.length != length) {
    throw InvalidArgument(state + " but the layout declares " + std::to_string(layout_.length));
  }
  if (multipliers && layout_.multipliers.empty()) {
    throw InvalidArgument(std::string(audit_name) +
                          ": constraint_power reads the multipliers, and the layout names none (with_multipliers)");
  }
  const auto check_part = [&](const std::vector<long>& indices, const char* part) {
    for (std::size_t i = 0; i < indices.size(); ++i) {
      if (indices[i] >= length) {
        throw InvalidArgument(state + "; the layout's " + part + "[" + std::to_string(i) +
                              "] = " + std::to_string(indices[i]) + " is past its end");
      }
    }
  };
  check_part(layout_.coordinates, "coordinates");
  check_part(layout_.velocities, "velocities");
  check_part(layout_.multipliers, "multipliers");
}

}  // namespace energy_audit::sun::detail
