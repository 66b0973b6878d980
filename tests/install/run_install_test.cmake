# cmake -D BUILD_DIR=... -D CONSUMER_SOURCE_DIR=... -D WORK_DIR=... [-D CONSUMER_FLAGS=...] -P run_install_test.cmake
# Installs the project into a scratch prefix, then, as outside projects: checks which components
# find_package(EnergyAudit) gives with and without SUNDIALS, and configures, builds and runs the
# consumer of the core alone (SUNDIALS hidden) and the consumer of the CVODES adapter.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
# Makes find_package(SUNDIALS) fail as if SUNDIALS were not installed (checked below).
set(hide_sundials -D CMAKE_DISABLE_FIND_PACKAGE_SUNDIALS=ON)

function(run_step description)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${description} failed (${result}):\n${output}")
  endif()
  message(STATUS "${description}: ok")
endfunction()

# configure_probe(name expected code [cmake arguments...]): configures a project whose
# CMakeLists.txt runs `code`, against the prefix. expected is "ok", or a regular expression that
# the output of a configuration that must fail matches. The project enables C++: without a
# language, CMake does not search lib/<arch>, where Debian keeps SUNDIALS' package files.
function(configure_probe name expected code)
  set(source ${WORK_DIR}/probes/${name})
  file(WRITE ${source}/CMakeLists.txt
    "cmake_minimum_required(VERSION 3.25)\nproject(${name} LANGUAGES CXX)\n${code}\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${source}/build -D CMAKE_PREFIX_PATH=${prefix} ${ARGN}
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(expected STREQUAL "ok" AND NOT result EQUAL 0)
    message(FATAL_ERROR "${name}: configuration failed (${result}):\n${output}")
  elseif(NOT expected STREQUAL "ok" AND result EQUAL 0)
    message(FATAL_ERROR "${name}: configuration succeeded, but it must fail:\n${output}")
  elseif(NOT expected STREQUAL "ok" AND NOT output MATCHES "${expected}")
    message(FATAL_ERROR "${name}: configuration failed without saying \"${expected}\":\n${output}")
  endif()
  message(STATUS "${name}: ok")
endfunction()

run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

set(find_sundials [[
find_package(SUNDIALS 6.4 QUIET COMPONENTS cvodes)
if(NOT SUNDIALS_FOUND)
  message(FATAL_ERROR "SUNDIALS not found")
endif()]])
configure_probe(sundials_found ok "${find_sundials}")
configure_probe(sundials_hidden "SUNDIALS not found" "${find_sundials}" ${hide_sundials})
configure_probe(cvodes_without_sundials "SUNDIALS adapters need SUNDIALS 6.4"
  "find_package(EnergyAudit REQUIRED COMPONENTS cvodes)" ${hide_sundials})
configure_probe(unknown_component "Unknown component \"cvode\": the components are core, cvodes and idas"
  "find_package(EnergyAudit REQUIRED COMPONENTS cvode)")
configure_probe(idas_brings_cvodes ok [[
find_package(EnergyAudit REQUIRED COMPONENTS idas)
if(NOT TARGET EnergyAudit::core OR NOT TARGET EnergyAudit::cvodes OR NOT TARGET EnergyAudit::idas)
  message(FATAL_ERROR "COMPONENTS idas must give EnergyAudit::core, EnergyAudit::cvodes and EnergyAudit::idas")
endif()]])

# A sanitized build installs sanitized libraries: the consumers must be built the same way.
foreach(consumer IN ITEMS core cvodes)
  if(consumer STREQUAL "core")
    set(options -D CONSUMER_CVODES=OFF ${hide_sundials})
  else()
    set(options -D CONSUMER_CVODES=ON)
  endif()
  set(build ${WORK_DIR}/${consumer}_consumer)
  run_step("configure the ${consumer} consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${build}
    -D CMAKE_PREFIX_PATH=${prefix} -D CMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}" ${options})
  run_step("build the ${consumer} consumer" ${CMAKE_COMMAND} --build ${build})
  run_step("run the ${consumer} consumer" ${build}/consumer_test)
endforeach()
