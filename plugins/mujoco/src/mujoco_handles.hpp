#pragma once
/// \file
/// Owners of the mjModel and mjData the MuJoCo component makes itself (the audit's own data, the
/// runs' model and data), freed by MuJoCo's own functions.

#include <memory>

#include <mujoco/mujoco.h>

namespace energy_audit::mujoco::detail {

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPointer = std::unique_ptr<mjModel, ModelDeleter>;
using DataPointer = std::unique_ptr<mjData, DataDeleter>;

}  // namespace energy_audit::mujoco::detail
