# cmake -D ROOT=repo -P check_links.cmake
# Every relative link of README.md and docs/*.md, [text](target) with the part before any "#",
# must name a file or folder of the repository, resolved from the folder of the page that links
# it. Links with a scheme (https:, mailto:) and links to a heading of the same page are not
# checked. Fails naming each page and link that does not resolve.
file(GLOB pages ${ROOT}/docs/*.md)
list(PREPEND pages ${ROOT}/README.md)
# CMake lists group items inside brackets, so a link's "](" becomes this marker and the other
# brackets become angle brackets before the links are matched.
string(ASCII 1 marker)
set(broken "")
foreach(page IN LISTS pages)
  file(READ ${page} text)
  get_filename_component(folder ${page} DIRECTORY)
  string(REPLACE "](" "${marker}" text "${text}")
  string(REPLACE "[" "<" text "${text}")
  string(REPLACE "]" ">" text "${text}")
  string(REGEX MATCHALL "${marker}[^); \t\n]+[)]" links "${text}")
  foreach(link IN LISTS links)
    string(REGEX REPLACE "^${marker}(.*)[)]$" "\\1" target "${link}")
    if(target MATCHES "^[a-zA-Z][a-zA-Z0-9+.-]*:" OR target MATCHES "^#")
      continue()
    endif()
    string(REGEX REPLACE "#.*$" "" path "${target}")
    if(NOT EXISTS ${folder}/${path})
      file(RELATIVE_PATH name ${ROOT} ${page})
      string(APPEND broken "\n  ${name}: ${target}")
    endif()
  endforeach()
endforeach()
if(NOT broken STREQUAL "")
  message(FATAL_ERROR "links that name no file of the repository:${broken}")
endif()
