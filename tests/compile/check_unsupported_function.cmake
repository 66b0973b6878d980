# cmake -D BUILD_DIR=dir -P check_unsupported_function.cmake
# A model calling a function Dual does not differentiate (dual_unsupported_function.cpp) fails to
# compile with exactly one error, the static_assert naming the function; the same model calling a
# supported function compiles. Both are built as targets of BUILD_DIR, with the project's flags.
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target dual_supported_function_control
  RESULT_VARIABLE control_result OUTPUT_VARIABLE control_output ERROR_VARIABLE control_output)
if(NOT control_result EQUAL 0 OR control_output MATCHES "warning:")
  message(FATAL_ERROR "the control (the model with tanh) does not compile cleanly:\n${control_output}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target dual_unsupported_function
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "the model calling erf on a Dual compiled")
endif()
string(REGEX MATCHALL "error:" errors "${output}")
list(LENGTH errors error_count)
if(NOT error_count EQUAL 1 OR NOT output MATCHES "static assertion failed: energy_audit::Dual has no erf\\(\\)")
  message(FATAL_ERROR "expected one error, the static_assert naming erf; got ${error_count}:\n${output}")
endif()
string(LENGTH "${output}" length)
message(STATUS "one error naming erf (${length} characters of compiler output)")
