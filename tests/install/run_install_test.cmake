# cmake -D BUILD_DIR=... -D SUNDIALS_VERSION=... -D SUNDIALS_DIR=... -D CONSUMER_SOURCE_DIR=...
#   -D C_CONSUMER_SOURCE_DIR=... -D FORTRAN_CONSUMER_SOURCE_DIR=... -D WORK_DIR=...
#   [-D CONSUMER_FLAGS=...] [-D MPIEXEC=...] [-D HAVE_ARKODE=1] [-D HAVE_FORTRAN=1]
#   [-D MUJOCO_PROGRAM=<C program> -D MUJOCO_MODEL=<MJCF file>]
#   -P run_install_test.cmake
# Installs the project into a scratch prefix, then, as outside projects: checks which components
# find_package(EnergyAudit) gives with and without SUNDIALS, and which SUNDIALS (the build's,
# SUNDIALS_VERSION in SUNDIALS_DIR), and configures, builds and runs the consumer of the core
# alone (SUNDIALS hidden), the consumers of the CVODES and of the IDAS adapter, the consumer of
# the studies (SUNDIALS hidden: the studies need none), which calls advise with fixed-step
# methods — given MPIEXEC (the build has MPI), it also uses the studies' MPI ranks (COMPONENTS
# studies studies_mpi) and runs as a job of 2 ranks — and that of the studies with the SUNDIALS
# methods, which calls advise with cvode-bdf; then the C programs of the drop-in audit, one per
# adapter (and of the ARKODE drop-in, given HAVE_ARKODE), each a project of the C language alone
# (C_CONSUMER_SOURCE_DIR), which the package must give the C++ runtime of its libraries; given
# HAVE_FORTRAN (the Fortran drop-in was built), the Fortran program of EnergyAudit::fortran, a
# project of the Fortran language alone (FORTRAN_CONSUMER_SOURCE_DIR), the same of
# EnergyAudit::fortran_idas and, with HAVE_FORTRAN_ARKODE, of EnergyAudit::fortran_arkode, on the
# test programs in FORTRAN_PROGRAM_DIR, and that the component
# asks for Fortran enabled; without it, that COMPONENTS fortran fails, saying why. Given
# MUJOCO_PROGRAM (the MuJoCo audit was built), that C program of EnergyAudit::mujoco, a project of
# C alone, run on MUJOCO_MODEL.
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
# the output of a configuration that must fail matches. The project enables C++, or the languages
# in probe_languages where the caller sets it: without a language, CMake does not search
# lib/<arch>, where Debian keeps SUNDIALS' package files.
function(configure_probe name expected code)
  set(source ${WORK_DIR}/probes/${name})
  if(NOT probe_languages)
    set(probe_languages CXX)
  endif()
  file(WRITE ${source}/CMakeLists.txt
    "cmake_minimum_required(VERSION 3.25)\nproject(${name} LANGUAGES ${probe_languages})\n${code}\n")
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

string(CONFIGURE [[
find_package(SUNDIALS QUIET COMPONENTS cvodes HINTS "@SUNDIALS_DIR@")
if(NOT SUNDIALS_FOUND)
  message(FATAL_ERROR "SUNDIALS not found")
endif()]] find_sundials @ONLY)
configure_probe(sundials_found ok "${find_sundials}")
configure_probe(sundials_hidden "SUNDIALS not found" "${find_sundials}" ${hide_sundials})
string(REGEX MATCH "^[0-9]+" sundials_major "${SUNDIALS_VERSION}")
configure_probe(cvodes_without_sundials "SUNDIALS adapters need SUNDIALS ${sundials_major}\\.x"
  "find_package(EnergyAudit REQUIRED COMPONENTS cvodes)" ${hide_sundials})
configure_probe(unknown_component "Unknown component \"cvode\": the components are core, cvodes, idas"
  "find_package(EnergyAudit REQUIRED COMPONENTS cvode)")
# A project of C alone gets CXX enabled by find_package, which a function's scope would lose: there
# it says so.
set(probe_languages C)
configure_probe(c_project_finds_in_a_function "outside a function"
  "function(find_it)\n  find_package(EnergyAudit REQUIRED COMPONENTS cvodes)\nendfunction()\nfind_it()")
unset(probe_languages)
if(HAVE_FORTRAN)
  configure_probe(fortran_without_fortran_enabled "has no[ \n]+Fortran[ \n]+enabled"
    "find_package(EnergyAudit REQUIRED COMPONENTS fortran)")
else()
  configure_probe(fortran_not_built "without[ \n]+the[ \n]+Fortran[ \n]+drop-in"
    "find_package(EnergyAudit REQUIRED COMPONENTS fortran)")
endif()

# The adapters find the SUNDIALS they were built with, also where the system has another one.
file(REAL_PATH "${SUNDIALS_DIR}" build_sundials_dir)
string(CONFIGURE [[
find_package(EnergyAudit REQUIRED COMPONENTS cvodes)
file(REAL_PATH "${SUNDIALS_DIR}" found_dir)
if(NOT SUNDIALS_VERSION STREQUAL "@SUNDIALS_VERSION@" OR NOT found_dir STREQUAL "@build_sundials_dir@")
  message(FATAL_ERROR "built with SUNDIALS @SUNDIALS_VERSION@ (@build_sundials_dir@), "
    "found ${SUNDIALS_VERSION} (${found_dir})")
endif()]] sundials_of_the_build @ONLY)
configure_probe(sundials_of_the_build ok "${sundials_of_the_build}")

# Each adapter comes with the common library and without the other adapter, in its targets and in
# everything its link interface brings (imported targets followed).
set(link_closure [[
function(link_closure target out)
  set(seen "")
  set(queue ${target})
  while(queue)
    list(POP_FRONT queue item)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" item "${item}")
    if(item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    if(TARGET ${item})
      get_target_property(libraries ${item} INTERFACE_LINK_LIBRARIES)
      if(libraries)
        list(APPEND queue ${libraries})
      endif()
    endif()
  endwhile()
  set(${out} ${seen} PARENT_SCOPE)
endfunction()
function(check_adapter adapter other)
  find_package(EnergyAudit REQUIRED COMPONENTS ${adapter})
  if(NOT TARGET EnergyAudit::${adapter} OR NOT TARGET EnergyAudit::sundials_common OR TARGET EnergyAudit::${other})
    message(FATAL_ERROR "COMPONENTS ${adapter} must give EnergyAudit::${adapter} and EnergyAudit::sundials_common, "
      "not EnergyAudit::${other}")
  endif()
  link_closure(EnergyAudit::${adapter} closure)
  if(NOT "EnergyAudit::sundials_common" IN_LIST closure OR NOT closure MATCHES "SUNDIALS::${adapter}")
    message(FATAL_ERROR "EnergyAudit::${adapter} must bring EnergyAudit::sundials_common and "
      "SUNDIALS::${adapter}: ${closure}")
  endif()
  if(closure MATCHES "${other}")
    message(FATAL_ERROR "EnergyAudit::${adapter} brings ${other}: ${closure}")
  endif()
endfunction()
]])
configure_probe(idas_without_cvodes ok "${link_closure}\ncheck_adapter(idas cvodes)")
configure_probe(cvodes_without_idas ok "${link_closure}\ncheck_adapter(cvodes idas)")

# A sanitized build installs sanitized libraries: the consumers must be built the same way.
foreach(consumer IN ITEMS core cvodes idas studies studies_sundials)
  set(options -D CONSUMER_COMPONENT=${consumer})
  if(consumer STREQUAL "core" OR consumer STREQUAL "studies")
    list(APPEND options ${hide_sundials})
  endif()
  set(build ${WORK_DIR}/${consumer}_consumer)
  set(run ${build}/consumer_test)
  if(consumer STREQUAL "studies" AND MPIEXEC)
    list(APPEND options -D CONSUMER_MPI=ON)
    # OpenMPI refuses root, and more ranks than cores, unless told.
    set(run ${CMAKE_COMMAND} -E env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_rmaps_base_oversubscribe=1 ${MPIEXEC} -n 2 ${run})
  endif()
  run_step("configure the ${consumer} consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${build}
    -D CMAKE_PREFIX_PATH=${prefix} -D CMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}" ${options})
  run_step("build the ${consumer} consumer" ${CMAKE_COMMAND} --build ${build})
  run_step("run the ${consumer} consumer" ${run})
endforeach()

# The C programs: a project of C alone, CXX not enabled, links the drop-in target (and its own math
# library) and nothing else.
set(c_consumers cvodes idas)
if(HAVE_ARKODE)
  list(APPEND c_consumers arkode)
endif()
if(MUJOCO_PROGRAM)
  list(APPEND c_consumers mujoco)
endif()
foreach(adapter IN LISTS c_consumers)
  set(build ${WORK_DIR}/c_${adapter}_consumer)
  set(arguments "")
  if(adapter STREQUAL "mujoco")
    set(arguments ${MUJOCO_MODEL} 1)
  endif()
  run_step("configure the C ${adapter} consumer" ${CMAKE_COMMAND} -S ${C_CONSUMER_SOURCE_DIR} -B ${build}
    -D CMAKE_PREFIX_PATH=${prefix} -D CMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=${CONSUMER_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}" -D CONSUMER_COMPONENT=${adapter} "-DCONSUMER_SOURCE=${MUJOCO_PROGRAM}")
  run_step("build the C ${adapter} consumer" ${CMAKE_COMMAND} --build ${build})
  run_step("run the C ${adapter} consumer" ${build}/c_consumer ${arguments})
endforeach()

# The Fortran programs: a project of Fortran alone links EnergyAudit::fortran and nothing else;
# the same with EnergyAudit::fortran_idas (the IDA test program of tests/plugins/drop_in) and,
# where it was built, EnergyAudit::fortran_arkode (the ERKStep one).
if(HAVE_FORTRAN)
  set(fortran_consumers "fortran=" "fortran_idas=${FORTRAN_PROGRAM_DIR}/damped_oscillator_ida_f2003.F90")
  if(HAVE_FORTRAN_ARKODE)
    list(APPEND fortran_consumers "fortran_arkode=${FORTRAN_PROGRAM_DIR}/damped_oscillator_erkstep_f2003.F90")
  endif()
  foreach(consumer IN LISTS fortran_consumers)
    string(REPLACE "=" ";" consumer "${consumer}")
    list(GET consumer 0 component)
    list(LENGTH consumer length)
    set(source "")
    if(length GREATER 1)
      list(GET consumer 1 source)
    endif()
    set(build ${WORK_DIR}/${component}_consumer)
    run_step("configure the Fortran ${component} consumer" ${CMAKE_COMMAND} -S ${FORTRAN_CONSUMER_SOURCE_DIR}
      -B ${build} -D CMAKE_PREFIX_PATH=${prefix} -D CMAKE_BUILD_TYPE=Release
      "-DCMAKE_Fortran_FLAGS=${CONSUMER_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}"
      -D CONSUMER_COMPONENT=${component} "-DCONSUMER_SOURCE=${source}")
    run_step("build the Fortran ${component} consumer" ${CMAKE_COMMAND} --build ${build})
    run_step("run the Fortran ${component} consumer" ${build}/fortran_consumer)
  endforeach()
endif()
