#pragma once
/// \file
/// `energy-audit mujoco`: an MJCF model run under the MuJoCo audit (mujoco_run.hpp), and its
/// nested commands `mujoco diagnose` (a ladder of timesteps) and `mujoco advise` (the largest
/// timestep that meets a target). Built where MuJoCo is found (EA_HAVE_MUJOCO).

#include "command.hpp"

namespace energy_audit::cli {

/// Adds `mujoco`, with `diagnose` and `advise` under it, to `app`.
Command add_mujoco_command(CLI::App& app);

}  // namespace energy_audit::cli
