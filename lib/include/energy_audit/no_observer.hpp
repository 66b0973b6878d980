#pragma once
/// \file
/// The observer that watches nothing: an integration with the audit off.

#include "energy_audit/types.hpp"

namespace energy_audit {

struct NoObserver {
  void operator()(const ConstVectorRef&, double) const {}
};

}  // namespace energy_audit
