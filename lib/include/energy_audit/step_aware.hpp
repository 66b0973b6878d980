#pragma once
/// \file
/// A model whose right-hand side depends on the fixed step it is evaluated in: the convention by
/// which a fixed-step method samples an excitation with jumps. The model gives
///
///     void begin_step(double t, double h) const;
///
/// and keeps what it needs in mutable members (one run at a time per model object). The
/// fixed-step driver (integrate_const.hpp) calls the system's begin_step before each step
/// [t, t + h] (StepAwareSystem, system_concepts.hpp), and every form passes it on to its model
/// (formulation.hpp). Adaptive solvers never call it; they stop at the jumps instead
/// (breakpoints).

#include "energy_audit/system_concepts.hpp"

namespace energy_audit {

/// How a fixed step samples an excitation given in pieces whose accelerations jump at known times
/// (a step-aware model's choice; adaptive solvers restart at the jumps instead).
enum class PiecePhase {
  Right,     ///< every evaluation takes the piece that contains its own time (right-continuous)
  Midpoint,  ///< every stage of the step [t_n, t_n + h] takes the piece that contains t_n + h/2
};

/// A model with begin_step(t, h).
template <class M>
concept StepAwareModel = requires(const M& model, double t, double h) { model.begin_step(t, h); };

}  // namespace energy_audit
