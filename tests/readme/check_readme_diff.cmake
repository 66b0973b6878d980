# cmake -D README=README.md -D SOURCE=path/in/repo -D ROOT=repo -P check_readme_diff.cmake
# After the line "<!-- diff of: SOURCE -->" the README shows, in a ```diff block, the lines that
# attach the audit to a program: context lines (" ") and added lines ("+"), with the lines they
# replace ("-"). Fails unless every context and added line is a whole line of SOURCE, in the
# order shown, so the README's diff is the one built.
include(${CMAKE_CURRENT_LIST_DIR}/fenced_block.cmake)
text_after_marker(${README} "<!-- diff of: ${SOURCE} -->" rest)
fenced_block("${rest}" diff rest)
file(READ ${ROOT}/${SOURCE} source)
set(unmatched "\n${source}")
while(NOT diff STREQUAL "")
  string(FIND "${diff}" "\n" end_of_line)
  if(end_of_line EQUAL -1)
    set(line "${diff}")
    set(diff "")
  else()
    string(SUBSTRING "${diff}" 0 ${end_of_line} line)
    math(EXPR next "${end_of_line} + 1")
    string(SUBSTRING "${diff}" ${next} -1 diff)
  endif()
  string(SUBSTRING "${line}" 0 1 kind)
  if(kind STREQUAL " " OR kind STREQUAL "+")
    string(SUBSTRING "${line}" 1 -1 content)
    string(FIND "${unmatched}" "\n${content}\n" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the README's diff of ${SOURCE} shows a line that ${SOURCE} does not have "
                          "(or not in this order):\n${content}")
    endif()
    math(EXPR past "${at} + 1")
    string(SUBSTRING "${unmatched}" ${past} -1 unmatched)
  endif()
endwhile()
