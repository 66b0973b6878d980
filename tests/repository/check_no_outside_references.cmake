# cmake -D ROOT=<source dir> -D PATHS=<folders and files, relative to ROOT, ;-separated>
#       -P check_no_outside_references.cmake
# Fails when a file under PATHS names a file outside the repository: the developers' notes
# MODELS.md, DESIGN.md and STYLE.md, or a folder of the machine the code was written on (the
# patterns below). Comments and messages point into docs/ instead, and cite the source papers by
# author and title. The files are the tracked ones when ROOT is a git checkout, else every file
# under PATHS; this script itself is skipped.
cmake_minimum_required(VERSION 3.20)

if(NOT ROOT OR NOT PATHS)
  message(FATAL_ERROR "usage: cmake -D ROOT=<dir> -D PATHS=<paths> -P ${CMAKE_CURRENT_LIST_FILE}")
endif()
# The patterns, written so that this file does not match them itself.
set(names "MODELS" "DESIGN" "STYLE")
list(TRANSFORM names APPEND "\\.md")
set(folders "/wor[k]/" "\\.\\./share[d]")
list(JOIN names "|" pattern)
list(JOIN folders "|" folder_pattern)
set(pattern "${pattern}|${folder_pattern}")

find_program(GIT git)
set(files "")
if(GIT AND EXISTS "${ROOT}/.git")
  execute_process(COMMAND "${GIT}" -c core.quotepath=off ls-files -- ${PATHS} WORKING_DIRECTORY "${ROOT}"
                  OUTPUT_VARIABLE listed RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "git ls-files failed in ${ROOT}")
  endif()
  string(REPLACE "\n" ";" files "${listed}")
else()
  foreach(path IN LISTS PATHS)
    if(IS_DIRECTORY "${ROOT}/${path}")
      file(GLOB_RECURSE found LIST_DIRECTORIES false RELATIVE "${ROOT}" "${ROOT}/${path}/*")
      list(APPEND files ${found})
    elseif(EXISTS "${ROOT}/${path}")
      list(APPEND files "${path}")
    endif()
  endforeach()
endif()

file(RELATIVE_PATH self "${ROOT}" "${CMAKE_CURRENT_LIST_FILE}")
set(hits "")
set(checked 0)
foreach(file IN LISTS files)
  if(file STREQUAL "" OR file STREQUAL self)
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  file(STRINGS "${ROOT}/${file}" lines REGEX "${pattern}" ENCODING UTF-8)
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    string(APPEND hits "\n  ${file}: ${line}")
  endforeach()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "no file found under ${PATHS} in ${ROOT}")
endif()
if(hits)
  message(FATAL_ERROR "files outside the repository named (point to docs/ instead):${hits}")
endif()
message(STATUS "${checked} files name no file outside the repository")
