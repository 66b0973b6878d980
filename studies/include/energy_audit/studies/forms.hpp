#pragma once
/// \file
/// The formulations ("forms") a model runs in, and what each one is: its name, the second half
/// w of its state y = [q, w, Z], the models that take it and the equations it integrates. Code
/// that needs a form's name or property looks it up here (form_traits); code that treats a form
/// as an id compares the Form itself.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace energy_audit::studies {

/// The formulation a model runs in: Lagrange's equations (y = [q, v, Z]) or Hamilton's
/// (y = [q, p, Z]) for a Lagrange model; with multipliers (y = [q, v, Z], λ from the
/// saddle point) or Maggi's equations (y = [q, u, Z]) for a multiplier model.
enum class Form { Lagrange, Hamilton, Multipliers, Maggi };

/// The models a form runs: those without constraints (Lagrange models) or multiplier models.
enum class ModelKind { Lagrange, Multiplier };

/// Whose names the second half w of a form's state carries: one per coordinate (v, p), or one
/// per independent velocity (Maggi's u).
enum class SecondHalfNames { Coordinates, IndependentVelocities };

/// The model's own equations a form integrates, which the equation check then measures: its
/// hand-derived accelerations, its equation error (equation_error.hpp), or none (the form derives
/// every equation from T, V and f).
enum class OwnEquations { None, HandAccelerations, EquationError };

/// What a form is.
struct FormTraits {
  Form form;
  const char* name;                  ///< --form's name: "lagrange"
  const char* second_half;           ///< the name of w: "v", "p", "u"
  SecondHalfNames second_half_names;  ///< whose names w's columns carry
  ModelKind models;                  ///< the models that run in it
  bool is_default;                   ///< the default form of its models
  /// The equations it integrates when the model's own are not run: "Lagrange's equations derived
  /// from T, V and f".
  const char* derived_equations;
  OwnEquations own_equations;        ///< the model's own equations it runs when the model has them
};

/// Every form, each model kind's default before its other forms.
inline constexpr std::array<FormTraits, 4> form_table{{
    {Form::Lagrange, "lagrange", "v", SecondHalfNames::Coordinates, ModelKind::Lagrange, true,
     "Lagrange's equations derived from T, V and f", OwnEquations::HandAccelerations},
    {Form::Hamilton, "hamilton", "p", SecondHalfNames::Coordinates, ModelKind::Lagrange, false,
     "Hamilton's equations derived from T, V and f", OwnEquations::None},
    {Form::Multipliers, "multipliers", "v", SecondHalfNames::Coordinates, ModelKind::Multiplier, true,
     "equations derived from T, V, f and the constraints", OwnEquations::EquationError},
    {Form::Maggi, "maggi", "u", SecondHalfNames::IndependentVelocities, ModelKind::Multiplier, false,
     "equations derived from T, V, f and the constraints", OwnEquations::EquationError},
}};

/// The traits of `form`.
constexpr const FormTraits& form_traits(Form form) {
  for (const FormTraits& traits : form_table) {
    if (traits.form == form) return traits;
  }
  return form_table.front();  // not reached: every Form is in the table
}

constexpr const char* form_name(Form form) { return form_traits(form).name; }

/// The form named `name`; absent when no form has that name.
std::optional<Form> form_named(std::string_view name);

/// The (name, form) choices of --form, in the table's order.
std::vector<std::pair<std::string, Form>> form_choices();

/// The forms of the models of `kind`, their default first.
std::vector<Form> forms_of(ModelKind kind);

/// The form names by the models that take them, for --form's help:
/// "lagrange|hamilton (Lagrange models), multipliers|maggi (multiplier models)".
std::string form_names_by_model_kind();

}  // namespace energy_audit::studies
