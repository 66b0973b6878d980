#include <energy_audit/studies/forms.hpp>

namespace energy_audit::studies {

std::optional<Form> form_named(std::string_view name) {
  for (const FormTraits& traits : form_table) {
    if (traits.name == name) return traits.form;
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, Form>> form_choices() {
  std::vector<std::pair<std::string, Form>> choices;
  for (const FormTraits& traits : form_table) choices.emplace_back(traits.name, traits.form);
  return choices;
}

std::vector<Form> forms_of(ModelKind kind) {
  std::vector<Form> forms;
  for (const FormTraits& traits : form_table) {
    if (traits.models != kind) continue;
    if (traits.is_default) {
      forms.insert(forms.begin(), traits.form);
    } else {
      forms.push_back(traits.form);
    }
  }
  return forms;
}

std::string form_names_by_model_kind() {
  const std::pair<ModelKind, const char*> kinds[] = {{ModelKind::Lagrange, "Lagrange models"},
                                                     {ModelKind::Multiplier, "multiplier models"}};
  std::string text;
  for (const auto& [kind, models] : kinds) {
    if (!text.empty()) text += ", ";
    std::string names;
    for (const Form form : forms_of(kind)) {
      if (!names.empty()) names += '|';
      names += form_name(form);
    }
    text += names;
    text += " (";
    text += models;
    text += ')';
  }
  return text;
}

}  // namespace energy_audit::studies
