#pragma once
/// \file
/// A model the studies run by name: its entry runs a DescribedModel with the user's parameter
/// and initial values (ModelSetup) through the integrators' templates, compiled for that model's
/// system and for the method families it runs (method_family.hpp). make_entry makes the entry of
/// any DescribedModel.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <energy_audit/extra_outputs.hpp>
#include <energy_audit/hamilton_system.hpp>
#include <energy_audit/lagrange_system.hpp>
#include <energy_audit/maggi_system.hpp>
#include <energy_audit/model_description.hpp>
#include <energy_audit/multiplier_system.hpp>
#include <energy_audit/named_forces.hpp>
#include <energy_audit/separable_model.hpp>
#include <energy_audit/system_concepts.hpp>
#include <energy_audit/trajectory_audit.hpp>

#include <energy_audit/studies/fixed_step_family.hpp>
#include <energy_audit/studies/forms.hpp>
#include <energy_audit/studies/method_families.hpp>
#include <energy_audit/studies/run_model.hpp>
#include <energy_audit/studies/run_system.hpp>
#include <energy_audit/studies/settings_error.hpp>

namespace energy_audit::studies {

struct ModelEntry {
  std::string name;
  std::string description;
  std::vector<std::string> coordinate_names;
  std::vector<std::string> parameter_names;
  std::vector<std::string> initial_value_names;
  std::vector<std::string> multiplier_names;  ///< empty unless a multiplier model
  /// Multipliers of constraints that can only pull or only push (a rope, a contact): a change of
  /// sign means the constraint would let go, and the summary says when.
  std::vector<std::string> one_sided_multipliers;
  std::vector<std::string> independent_velocities;  ///< Maggi's form by default (may be empty)
  Interval interval;
  /// The methods its run is compiled for: those of make_entry's method families.
  std::vector<Method> methods;

  std::vector<Form> forms;  ///< the formulations it runs in, the default first
  /// Whether the model's hand-derived accelerations are run in Lagrange's form, where the
  /// equation check applies.
  bool has_hand_accelerations = false;
  /// Whether the model carries an equation_error (equation_error.hpp), which its multiplier and
  /// Maggi forms integrate and the equation check then measures.
  bool has_equation_error = false;
  /// Whether the model has an excitation in pieces whose sampling by a fixed step --phase chooses
  /// (a `PiecePhase phase` member, step_aware.hpp).
  bool has_phase = false;
  /// Whether its energy H = T + V has no explicit t and the library's forward mode gives its
  /// gradient (EnergyGradientModel, energy_gradient.hpp): ARKODE's relaxation takes it in every
  /// form but Maggi's.
  bool has_energy_gradient = false;
  /// Whether the model declares itself separable (separable_model.hpp): SPRKStep's methods run
  /// its Lagrange and Hamilton forms.
  bool separable = false;

  /// The model's extra outputs (extra_outputs.hpp), written after the standard columns and in
  /// the JSON record; empty when it has none.
  std::vector<std::string> extra_output_names;
  /// Models with extra outputs: their values at a history row of the model with `setup` applied,
  /// run in `form` (Maggi's: with the independent velocities `independent`).
  std::function<ExtraOutputFunction(const ModelSetup& setup, Form form,
                                    const std::vector<std::string>& independent)>
      extra_output_function;

  /// The forces the model names (named_forces.hpp), in its order; empty when it names none.
  std::vector<std::string> force_names;
  /// Models that name forces: the power vᵀ f_k of each named force [W] at a history row of the
  /// model with `setup` applied, run in `form` (Maggi's: with `independent`).
  std::function<ExtraOutputFunction(const ModelSetup& setup, Form form,
                                    const std::vector<std::string>& independent)>
      force_power_function;
  /// Models whose equations are checked in some form (checks_equations): at a history row of
  /// that form, for each coordinate i, |(M a − r)_i| / scale of the equation residual at that
  /// state (equation_residual.hpp); an empty function for a form whose equations are not checked.
  std::function<ExtraOutputFunction(const ModelSetup& setup, Form form,
                                    const std::vector<std::string>& independent)>
      equation_residual_function;

  /// Models without multipliers: their accelerations a(q, v, t), from the source their runs in
  /// Lagrange's form take, at a history row of that form (one value per coordinate, the history
  /// CSV's NAME_ddot). Absent for multiplier models.
  std::function<ExtraOutputFunction(const ModelSetup& setup)> acceleration_function;

  bool has_multipliers() const { return !multiplier_names.empty(); }
  /// Whether the model's own equations run in `form` (form_traits' own_equations), where the
  /// equation check applies.
  bool checks_equations(Form form) const {
    switch (form_traits(form).own_equations) {
      case OwnEquations::HandAccelerations: return has_hand_accelerations;
      case OwnEquations::EquationError: return has_equation_error;
      case OwnEquations::None: break;
    }
    return false;
  }
  /// Applies --set and --init to a fresh model; throws SettingsError naming an unknown name or a
  /// value outside its domain, and the option as `names` spells it.
  std::function<void(const ModelSetup&, const OptionNames& names)> check_setup;
  /// Integrates the model with the setup applied; fills the outcome's parameters, counters and
  /// end. The model's own exceptions end the run as RunEnd::Error, they do not propagate.
  std::function<void(const ModelSetup&, const RunSettings&, RunOutcome&)> run;
  /// Audits samples (t, q, v, a) computed elsewhere with the model's energies and forces, the
  /// setup applied (trajectory_audit.hpp); absent for multiplier models, whose Z needs the
  /// multipliers.
  std::function<Audit(const ModelSetup&, const TrajectorySamples&, const AuditOptions&)> audit_trajectory;
};

namespace detail {

/// A model whose fixed-step sampling of its pieces --phase sets.
template <class M>
concept HasPiecePhase = requires(M& model) {
  { model.phase } -> std::same_as<PiecePhase&>;
};

template <class Members>
std::vector<std::string> names_of(const Members& members) {
  std::vector<std::string> names;
  for (const auto& m : members) names.emplace_back(m.name);
  return names;
}

template <class M, class Members>
void assign(M& model, const Members& members, const Assignment& a, const std::string& option,
            const std::string& model_name) {
  const auto it = std::find_if(members.begin(), members.end(),
                               [&](const auto& m) { return m.name == a.name; });
  if (it == members.end()) {
    throw SettingsError(option + ": model " + model_name + " has no '" + a.name + "' (it has: " +
                        join(names_of(members)) + ")");
  }
  if (!within_domain(it->domain, a.value)) {
    throw SettingsError(option + ": " + a.name + " = " + to_text(a.value) + " must be " +
                        domain_text(it->domain));
  }
  model.*(it->member) = a.value;
}

/// The positions of `names` among a model's coordinates (names checked by check_settings).
template <int k, class Names>
std::array<int, k> indices_of(std::span<const std::string> names, const Names& coordinates) {
  std::array<int, k> indices{};
  for (int j = 0; j < k; ++j) {
    indices[j] = static_cast<int>(std::find(coordinates.begin(), coordinates.end(), names[j]) - coordinates.begin());
  }
  return indices;
}

/// The entry's model with --set and --init applied, then prepared (model_description.hpp); a
/// usage error names the option as `names` spells it.
template <DescribedModel M>
M configured(const ModelSetup& setup, const std::string& name, M model, const OptionNames& names = {}) {
  for (const Assignment& a : setup.parameters) assign(model, M::parameters(), a, names("set"), name);
  for (const Assignment& a : setup.initial_values) assign(model, M::initial_values(), a, names("init"), name);
  if constexpr (PreparedModel<M>) model.prepare();
  return model;
}

/// How the system of a model in a form is built, beyond the form itself.
struct SystemChoice {
  Form form = Form::Lagrange;
  std::span<const std::string> independent;  ///< Maggi's form: the independent velocities
  AccelerationSource source = AccelerationSource::Hand;  ///< Lagrange's form: where its accelerations come from
  EnergyFlow flow = EnergyFlow::Off;          ///< whether the state carries Z
  std::optional<Baumgarte> baumgarte;         ///< the multipliers form: Baumgarte's stabilization, if any
};

/// What visit(system) returns for the system of `model` in `choice.form`, built as `choice` says:
/// the one place that maps a form to its system, for a run and for the functions of its history
/// rows alike.
template <DescribedModel M, class Visit>
auto visit_system(const M& model, const SystemChoice& choice, Visit&& visit) {
  if constexpr (MultiplierModel<M>) {
    if (choice.form == Form::Maggi) {
      return visit(MaggiSystem<M>(
          model, indices_of<M::dofs - M::constraints>(choice.independent, M::coordinate_names()), choice.flow));
    }
    return visit(MultiplierSystem<M>(model, choice.baumgarte, choice.flow));
  } else if (choice.form == Form::Hamilton) {
    return visit(HamiltonSystem<M>(model, choice.flow));
  } else {
    return visit(LagrangeSystem<M>(model, choice.source, choice.flow));
  }
}

/// The initial state y0 of `system` from the model's initial q and v at t0, one call for every
/// system: Hamilton's momenta are taken at t0, the other systems' states do not depend on it.
template <class System, class Start>
Vector initial_state_of(const System& system, const Start& start, double t0) {
  if constexpr (requires { system.initial_state(start.q, start.v, t0); }) {
    return system.initial_state(start.q, start.v, t0);
  } else {
    return system.initial_state(start.q, start.v);
  }
}

/// The state y = [q, w] of a history row.
inline ConstVectorRef row_state(const HistoryLayout& layout, std::span<const double> row) {
  return ConstVectorRef(row.data() + 1, static_cast<Index>(layout.dofs + layout.second_half));
}

/// The power of each named force of `system`'s model at a history row.
template <NamedForcesSystem System>
ExtraOutputFunction row_force_powers(System system) {
  return [system = std::move(system)](const HistoryLayout& layout, std::span<const double> row,
                                      std::span<double> values) {
    const auto powers = system.named_force_powers(row_state(layout, row), row[0], false).forces;
    std::copy(powers.begin(), powers.end(), values.begin());
  };
}

/// Per coordinate, the relative residual of its equation at a history row: |(M a − r)_i| / scale
/// (0 where the residual is 0); an empty function when `system` does not check its equations.
template <class System>
ExtraOutputFunction row_equation_residuals(System system) {
  if constexpr (EquationCheckedSystem<System>) {
    if (!system.checks_equations()) return {};
    return [system = std::move(system)](const HistoryLayout& layout, std::span<const double> row,
                                        std::span<double> values) {
      const EquationResidual r = system.equation_residual(row_state(layout, row), row[0]);
      for (Index i = 0; i < r.coordinates.size(); ++i) {
        const double residual = r.coordinates[i];
        values[static_cast<std::size_t>(i)] = residual == 0 ? 0.0 : residual / r.scale;
      }
    };
  } else {
    return {};
  }
}

/// The extra outputs of `system`'s model at a history row: v comes from the row's w by the
/// system (p in Hamilton's form, u in Maggi's).
template <class System>
ExtraOutputFunction row_extra_outputs(System system) {
  return [system = std::move(system)](const HistoryLayout& layout, std::span<const double> row,
                                      std::span<double> values) {
    const ConstVectorRef q(row.data() + 1, static_cast<Index>(layout.dofs));
    const ConstVectorRef w(row.data() + 1 + layout.dofs, static_cast<Index>(layout.second_half));
    const auto outputs = extra_outputs_at(system, q, w, row[0]);
    std::copy(outputs.begin(), outputs.end(), values.begin());
  };
}

/// The extra outputs of `model` run in `form`, at a history row.
template <DescribedModel M>
  requires HasExtraOutputs<M>
ExtraOutputFunction extra_output_function(const M& model, Form form, const std::vector<std::string>& independent) {
  return visit_system(model, {.form = form, .independent = independent, .source = LagrangeSystem<M>::default_source()},
                      [](auto system) { return row_extra_outputs(std::move(system)); });
}

}  // namespace detail

/// The entry for `prototype` under `name`: --set and --init apply to a copy of it, so that one
/// model type runs under several names with different defaults (crane3d and crane3d-drop: the
/// case), compiled once. A Lagrange model takes its accelerations from `source`, a multiplier
/// model always from its saddle-point system. Its run is compiled for the method families of
/// Families (a MethodFamilies): the fixed-step methods unless a component's families are given.
template <DescribedModel M, class Families = MethodFamilies<FixedStepFamily>>
ModelEntry make_entry(std::string name, std::string description, M prototype,
                      AccelerationSource source = LagrangeSystem<M>::default_source()) {
  ModelEntry entry;
  entry.methods = Families::methods();
  entry.name = name;
  entry.description = std::move(description);
  for (auto c : M::coordinate_names()) entry.coordinate_names.emplace_back(c);
  entry.parameter_names = detail::names_of(M::parameters());
  entry.initial_value_names = detail::names_of(M::initial_values());
  entry.interval = M::interval;
  entry.has_hand_accelerations =
      !MultiplierModel<M> && HasHandAccelerations<M> && source == AccelerationSource::Hand;
  entry.has_equation_error = MultiplierModel<M> && HasEquationError<M>;
  entry.has_phase = detail::HasPiecePhase<M>;
  entry.has_energy_gradient = EnergyGradientModel<M>;
  entry.separable = is_separable<M>;
  entry.forms = forms_of(MultiplierModel<M> ? ModelKind::Multiplier : ModelKind::Lagrange);
  if constexpr (MultiplierModel<M>) {
    if constexpr (requires { M::independent_velocities(); }) {
      for (auto velocity : M::independent_velocities()) entry.independent_velocities.emplace_back(velocity);
    }
    if constexpr (requires { M::one_sided_multipliers(); }) {
      for (auto multiplier : M::one_sided_multipliers()) entry.one_sided_multipliers.emplace_back(multiplier);
    }
    if constexpr (requires { M::multiplier_names(); }) {
      for (auto multiplier : M::multiplier_names()) entry.multiplier_names.emplace_back(multiplier);
    } else {
      for (int k = 1; k <= M::constraints; ++k) entry.multiplier_names.push_back("lambda" + std::to_string(k));
    }
  }
  if constexpr (HasExtraOutputs<M>) {
    for (auto output : M::extra_output_names()) entry.extra_output_names.emplace_back(output);
    entry.extra_output_function = [name, prototype](const ModelSetup& setup, Form form,
                                                    const std::vector<std::string>& independent) {
      return detail::extra_output_function(detail::configured<M>(setup, name, prototype), form, independent);
    };
  }
  entry.force_names = force_names_of<M>();
  if constexpr (NamedForcesModel<M>) {
    entry.force_power_function = [name, prototype](const ModelSetup& setup, Form form,
                                                   const std::vector<std::string>& independent) {
      return detail::visit_system(
          detail::configured<M>(setup, name, prototype),
          {.form = form, .independent = independent, .source = LagrangeSystem<M>::default_source()},
          [](auto system) { return detail::row_force_powers(std::move(system)); });
    };
  }
  if constexpr (MultiplierModel<M> ? HasEquationError<M> : HasHandAccelerations<M>) {
    if (entry.has_hand_accelerations || entry.has_equation_error) {
      entry.equation_residual_function = [name, source, prototype](const ModelSetup& setup, Form form,
                                                                   const std::vector<std::string>& independent) {
        return detail::visit_system(
            detail::configured<M>(setup, name, prototype), {.form = form, .independent = independent, .source = source},
            [](auto system) { return detail::row_equation_residuals(std::move(system)); });
      };
    }
  }
  entry.check_setup = [name, prototype](const ModelSetup& setup, const OptionNames& names) {
    detail::configured<M>(setup, name, prototype, names);
  };
  if constexpr (!MultiplierModel<M>) {
    entry.acceleration_function = [name, source, prototype](const ModelSetup& setup) -> ExtraOutputFunction {
      using System = LagrangeSystem<M>;
      using Coordinates = typename System::Coordinates;
      return [system = System(detail::configured<M>(setup, name, prototype), source, EnergyFlow::Off)](
                 const HistoryLayout&, std::span<const double> row, std::span<double> values) {
        const Coordinates q = Eigen::Map<const Coordinates>(row.data() + 1);
        const Coordinates v = Eigen::Map<const Coordinates>(row.data() + 1 + M::dofs);
        const Coordinates a = system.accelerations(q, v, row[0]);
        std::copy(a.data(), a.data() + M::dofs, values.begin());
      };
    };
    entry.audit_trajectory = [name, prototype](const ModelSetup& setup, const TrajectorySamples& samples,
                                               const AuditOptions& options) {
      return energy_audit::audit_trajectory(samples, trajectory_energies(detail::configured<M>(setup, name, prototype)),
                                            options);
    };
  }
  entry.run = [name, source, prototype](const ModelSetup& setup, const RunSettings& settings, RunOutcome& outcome) {
    M model = detail::configured<M>(setup, name, prototype);
    if constexpr (detail::HasPiecePhase<M>) {
      if (settings.phase) model.phase = *settings.phase;
      outcome.phase = model.phase;
    }
    if constexpr (HasExtraOutputs<M>) {
      constexpr auto names = M::extra_output_names();
      if (outcome.audit) outcome.extra_outputs.emplace(std::vector<std::string>(names.begin(), names.end()));
    }
    for (const auto& p : M::parameters()) outcome.parameters.push_back({std::string(p.name), model.*(p.member)});
    const InitialState<M::dofs> start = model.initial_state();
    std::optional<Baumgarte> baumgarte;
    if (settings.stabilization == Stabilization::Baumgarte) baumgarte = settings.baumgarte;
    const detail::SystemChoice choice{.form = outcome.form,
                                      .independent = outcome.independent,
                                      .source = source,
                                      .flow = settings.audited ? EnergyFlow::Carried : EnergyFlow::Off,
                                      .baumgarte = baumgarte};
    detail::visit_system(model, choice, [&](const auto& system) {
      run_system<Families>(outcome, system, detail::initial_state_of(system, start, M::interval.t0), settings);
    });
  };
  return entry;
}

/// The entry for a default-constructed model M under `name`.
template <DescribedModel M, class Families = MethodFamilies<FixedStepFamily>>
ModelEntry make_entry(std::string name, std::string description,
                      AccelerationSource source = LagrangeSystem<M>::default_source()) {
  return make_entry<M, Families>(std::move(name), std::move(description), M{}, source);
}

}  // namespace energy_audit::studies
