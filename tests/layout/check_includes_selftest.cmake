# Runs check_includes.cmake on bad-tree/, a fixture with one forbidden include per rule
# beside allowed ones, and requires exactly the violations listed in bad-tree.expected and
# a failing exit: a rule that stops firing, or fires on an allowed include, fails this test.
#   cmake -DCMAKE_COMMAND=cmake -P tests/layout/check_includes_selftest.cmake
set(here "${CMAKE_CURRENT_LIST_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" "-DROOT=${here}/bad-tree" -P "${here}/check_includes.cmake"
  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(result EQUAL 0)
  message(FATAL_ERROR "check_includes passed on bad-tree/, which breaks every rule:\n${err}")
endif()
string(REGEX MATCHALL "violation: [^\n]*" got "${err}")
file(STRINGS "${here}/bad-tree.expected" want)
if(NOT got STREQUAL want)
  string(REPLACE ";" "\n" got_lines "${got}")
  string(REPLACE ";" "\n" want_lines "${want}")
  message(FATAL_ERROR "check_includes on bad-tree/ reported\n${got_lines}\ninstead of\n${want_lines}")
endif()
list(LENGTH want n)
message("check_includes_selftest: bad-tree/ gives the ${n} expected violations")
