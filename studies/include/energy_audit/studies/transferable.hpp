#pragma once
/// \file
/// What can travel between the ranks of an MPI job (run_pool.hpp): a result convertible to and
/// from JSON, which run_pool.hpp sends as CBOR, and the JSON of an optional member (null when
/// absent), which nlohmann-json 3.11 does not convert by itself.

#include <concepts>
#include <optional>

#include <nlohmann/json.hpp>

namespace energy_audit::studies {

/// A result that can travel between ranks: convertible to and from JSON (to_json and from_json
/// found by argument-dependent lookup, or nlohmann's own for numbers, strings and containers).
template <class Result>
concept Transferable = std::default_initializable<Result> && requires(const Result& result, nlohmann::json& json) {
  json = result;
  { json.get<Result>() } -> std::same_as<Result>;
};

template <class T>
nlohmann::json optional_to_json(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

template <class T>
std::optional<T> optional_from_json(const nlohmann::json& json) {
  return json.is_null() ? std::nullopt : std::optional<T>(json.get<T>());
}

}  // namespace energy_audit::studies
