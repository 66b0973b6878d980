#pragma once
/// \file
/// How the command line writes a number: the shortest text that reads back to the same double
/// (the CSV files, the exact values in tables and messages), or a printf conversion of one double
/// (the rounded columns of the tables and the labels of the plots). The messages that give a
/// number as a stream writes it (6 significant digits) take energy_audit::to_text (error.hpp).

#include <string>

namespace energy_audit::cli {

/// The shortest text that reads back to the same double: "0.001", "1e-10", "inf", "-inf", "nan".
std::string shortest_text(double value);

/// Appends shortest_text(value) to `text` without a string of its own (the history CSV's rows).
void append_shortest_text(std::string& text, double value);

/// `value` as the printf conversion `spec` writes one double: "%.3e", "%g", "%.4g".
std::string printf_text(const char* spec, double value);

/// `value` as the printf conversion `spec` writes it with the precision `precision` given apart:
/// "%.*e", "%.*g".
std::string printf_text(const char* spec, int precision, double value);

}  // namespace energy_audit::cli
