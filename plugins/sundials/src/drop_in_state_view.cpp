#include "drop_in_state_view.hpp"

#include <algorithm>
#include <energy_audit/error.hpp>
#include <string>
#include <utility>

namespace energy_audit::sun::detail {

DropInStateView::Part DropInStateView::Part::of(const std::vector<long>& indices) {
  if (indices.empty()) return Part{0, 1, 0, {}, {}};
  const long stride = indices.size() > 1 ? indices[1] - indices[0] : 1;
  bool evenly_spaced = stride >= 1;
  for (std::size_t i = 1; i < indices.size() && evenly_spaced; ++i) {
    evenly_spaced = indices[i] - indices[i - 1] == stride;
  }
  if (evenly_spaced) return Part{indices[0], stride, static_cast<long>(indices.size()), {}, {}};
  return Part{0, 1, 0, indices, {}};
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
  const auto check_part = [&](const std::vector<long>& indices, const char* part) {
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const long index = indices[i];
      const auto where = [&] { return std::string(part) + "[" + std::to_string(i) + "] = " + std::to_string(index); };
      if (index < 0) refuse("has " + where() + ", a negative index");
      if (layout.length > 0 && index >= layout.length) {
        refuse("has " + where() + ", past the state's " + std::to_string(layout.length) + " entries");
      }
    }
  };
  check_part(layout.coordinates, "coordinates");
  check_part(layout.velocities, "velocities");
  check_part(layout.multipliers, "multipliers");
  // An entry named twice: each index marked in a table of the entries up to the largest named
  // (one pass, few branches; for a layout of 10⁴ entries a sort costs more than the audit's first
  // steps), or, when that table would be far larger than the layout, the indices sorted.
  const auto duplicate = [&](const std::vector<long>& indices, const char* part, std::size_t i) {
    refuse("has " + std::string(part) + "[" + std::to_string(i) + "] = " + std::to_string(indices[i]) +
           ", an entry of y named twice");
  };
  const std::pair<const std::vector<long>*, const char*> parts[] = {
      {&layout.coordinates, "coordinates"}, {&layout.velocities, "velocities"}, {&layout.multipliers, "multipliers"}};
  std::size_t named_count = 0;
  long largest = -1;
  for (const auto& [indices, part] : parts) {
    named_count += indices->size();
    for (const long index : *indices) largest = std::max(largest, index);
  }
  if (largest < static_cast<long>(16 * named_count + 1024)) {
    std::vector<bool> named(static_cast<std::size_t>(largest + 1), false);
    for (const auto& [indices, part] : parts) {
      for (std::size_t i = 0; i < indices->size(); ++i) {
        const auto entry = static_cast<std::size_t>((*indices)[i]);
        if (named[entry]) duplicate(*indices, part, i);
        named[entry] = true;
      }
    }
  } else {
    struct Named {
      long index;
      std::size_t part, position;
    };
    std::vector<Named> named;
    named.reserve(named_count);
    for (std::size_t p = 0; p < 3; ++p) {
      for (std::size_t i = 0; i < parts[p].first->size(); ++i) named.push_back({(*parts[p].first)[i], p, i});
    }
    std::stable_sort(named.begin(), named.end(), [](const Named& a, const Named& b) { return a.index < b.index; });
    for (std::size_t k = 1; k < named.size(); ++k) {
      if (named[k].index == named[k - 1].index) {
        duplicate(*parts[named[k].part].first, parts[named[k].part].second, named[k].position);
      }
    }
  }
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
