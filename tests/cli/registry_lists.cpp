#include "registry_lists.hpp"

#include <energy_audit/studies/methods.hpp>

std::vector<std::string> registry_fixed_step_method_names() {
  namespace studies = energy_audit::studies;
  return studies::fixed_step_method_names(studies::fixed_step_methods());
}
