# ea_add_test(name SOURCES file... [LIBS target...]): one Boost.Test program, registered with
# CTest under its own name (which is also its BOOST_TEST_MODULE).
find_package(Boost 1.74 REQUIRED COMPONENTS unit_test_framework)

function(ea_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_compile_definitions(${name} PRIVATE BOOST_TEST_MODULE=${name} BOOST_TEST_DYN_LINK)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fixtures)
  target_link_libraries(${name} PRIVATE Boost::unit_test_framework ${ARG_LIBS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  energy_audit_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
endfunction()
