# cmake -D ROOT=<source dir> -P check_layering.cmake
# Fails when an arrow runs back up the floors: a file of lib/ that includes a header of anything
# above it (the studies, the SUNDIALS or MuJoCo plugins, SUNDIALS or MuJoCo itself, the
# examples), a file of studies/ (not its sundials/ component) that includes a SUNDIALS or MuJoCo
# header or the plugins', or a file of plugins/mujoco/ that includes SUNDIALS or another plugin. Every
# `energy_audit/...` header a floor includes must be one of its own or of a floor below it.
cmake_minimum_required(VERSION 3.20)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -D ROOT=<dir> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

# SUNDIALS' own headers: sundials/, cvodes/, idas/, arkode/, nvector/, sunmatrix/, sunlinsol/, ...
set(sundials_header "^(sundials|sun[a-z_]+|cvodes?|idas?|arkode|nvector)/")

# check_floor(<name> <files> <include dirs a floor may use>)
function(check_floor floor files allowed_dirs)
  foreach(file IN LISTS files)
    file(STRINGS "${ROOT}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"][^>\"]+[>\"]")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*$" "\\1" header "${line}")
      if(header MATCHES "${sundials_header}")
        list(APPEND problems "${file} (${floor}) includes SUNDIALS' ${header}")
        continue()
      endif()
      if(header MATCHES "^mujoco/" AND NOT floor STREQUAL "plugins/mujoco")
        list(APPEND problems "${file} (${floor}) includes MuJoCo's ${header}")
        continue()
      endif()
      if(NOT header MATCHES "^energy_audit/")
        continue()  # the standard library, Eigen, nlohmann-json, ...
      endif()
      set(found FALSE)
      foreach(dir IN LISTS allowed_dirs)
        if(EXISTS "${ROOT}/${dir}/${header}")
          set(found TRUE)
          break()
        endif()
      endforeach()
      if(NOT found)
        list(APPEND problems "${file} (${floor}) includes ${header}, which is not of ${floor} or a floor below it")
      endif()
    endforeach()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

set(problems "")
file(GLOB_RECURSE lib_files RELATIVE "${ROOT}" "${ROOT}/lib/*.hpp" "${ROOT}/lib/*.cpp")
check_floor("lib" "${lib_files}" "lib/include")
file(GLOB_RECURSE studies_files RELATIVE "${ROOT}" "${ROOT}/studies/include/*.hpp" "${ROOT}/studies/src/*.hpp"
     "${ROOT}/studies/src/*.cpp")
check_floor("studies" "${studies_files}" "lib/include;studies/include")
file(GLOB_RECURSE mujoco_files RELATIVE "${ROOT}" "${ROOT}/plugins/mujoco/*.hpp" "${ROOT}/plugins/mujoco/*.h"
     "${ROOT}/plugins/mujoco/*.cpp")
check_floor("plugins/mujoco" "${mujoco_files}" "lib/include;plugins/mujoco/include")

list(LENGTH lib_files lib_count)
list(LENGTH studies_files studies_count)
list(LENGTH mujoco_files mujoco_count)
if(lib_count EQUAL 0)
  list(APPEND problems "no file under ${ROOT}/lib")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "an arrow runs back up:\n  ${text}")
endif()
message(STATUS "layering: ${lib_count} files of lib/, ${studies_count} of studies/ and ${mujoco_count} of plugins/mujoco/ "
  "include nothing above them")
