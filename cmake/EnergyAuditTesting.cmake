# ea_add_test(name SOURCES file... [LIBS target...] [SUITES suite...]): one Boost.Test program.
# Without SUITES it is registered with CTest under its own name (which is also its
# BOOST_TEST_MODULE). With SUITES, each top-level test suite of the program is registered on its
# own: suite S of program P_test as P_S_test, which runs `P_test --run_test=S`; the program's
# sources are then one per suite, the first of them defining the program's main.
find_package(Boost 1.74 REQUIRED COMPONENTS unit_test_framework)

function(ea_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;SUITES" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  if(ARG_SUITES)
    target_compile_definitions(${name} PRIVATE BOOST_TEST_DYN_LINK)
    list(GET ARG_SOURCES 0 main_source)
    set_property(SOURCE ${main_source} APPEND PROPERTY COMPILE_DEFINITIONS BOOST_TEST_MODULE=${name})
  else()
    target_compile_definitions(${name} PRIVATE BOOST_TEST_MODULE=${name} BOOST_TEST_DYN_LINK)
  endif()
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/fixtures)
  target_link_libraries(${name} PRIVATE Boost::unit_test_framework ${ARG_LIBS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  energy_audit_warnings(${name})
  if(ARG_SUITES)
    string(REGEX REPLACE "_test$" "" program ${name})
    foreach(suite IN LISTS ARG_SUITES)
      add_test(NAME ${program}_${suite}_test COMMAND ${name} --run_test=${suite})
    endforeach()
  else()
    add_test(NAME ${name} COMMAND ${name})
  endif()
endfunction()
