# cmake -D README=README.md -D NAME=name [-D RUN=program] [-D SUBSTITUTE=text=replacement]
#       [-D IGNORE_PREFIX=text] -D WORK=dir -P check_readme_example.cmake
# After the line "<!-- example: NAME -->" the README shows an example in a fenced block and, in
# the next fenced block, what it prints. The example is run — as a file given to RUN (e.g. the
# Python interpreter), or without RUN as a shell command line, with SUBSTITUTE's text replaced
# (the built program's path for the one the README names) — and the test fails unless it exits
# 0 and its standard output is the shown output, lines that start with IGNORE_PREFIX left out
# of both (a wall time).
include(${CMAKE_CURRENT_LIST_DIR}/fenced_block.cmake)
text_after_marker(${README} "<!-- example: ${NAME} -->" rest)
fenced_block("${rest}" example rest)
fenced_block("${rest}" shown rest)
if(DEFINED RUN)
  set(program ${WORK}/readme_example_${NAME})
  file(WRITE ${program} "${example}")
  execute_process(COMMAND ${RUN} ${program} OUTPUT_VARIABLE printed RESULT_VARIABLE status)
else()
  if(DEFINED SUBSTITUTE)
    string(FIND "${SUBSTITUTE}" "=" equals)
    string(SUBSTRING "${SUBSTITUTE}" 0 ${equals} from)
    math(EXPR after "${equals} + 1")
    string(SUBSTRING "${SUBSTITUTE}" ${after} -1 to)
    string(REPLACE "${from}" "${to}" example "${example}")
  endif()
  execute_process(COMMAND sh -c "${example}" WORKING_DIRECTORY ${WORK} OUTPUT_VARIABLE printed
                  RESULT_VARIABLE status)
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the README's example \"${NAME}\" exited with ${status}:\n${printed}")
endif()
if(DEFINED IGNORE_PREFIX)
  string(REGEX REPLACE "(^|\n)${IGNORE_PREFIX}[^\n]*" "\\1" printed "${printed}")
  string(REGEX REPLACE "(^|\n)${IGNORE_PREFIX}[^\n]*" "\\1" shown "${shown}")
endif()
if(NOT printed STREQUAL shown)
  message(FATAL_ERROR "the README's example \"${NAME}\" prints\n${printed}\nbut the README shows\n${shown}")
endif()
