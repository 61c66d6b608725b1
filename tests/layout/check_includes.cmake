# The include directions of docs/layout.md ("Dependencies flow one way"), checked on the sources:
#   cmake -DROOT=<source dir> -P tests/layout/check_includes.cmake
# Prints one line per forbidden include ("violation: FILE:LINE: includes X: RULE") and fails
# when there is one. Linking cannot catch these: a header-only include of a folder the
# target does not link compiles and links fine (every target has the source root on its
# include path).
#
# A rule: the files it covers (a regex on the path from ROOT), the includes they must not
# have (a regex on the included name), optionally files it leaves out, and the rule as the
# report states it. CMake regexes have no ';' and no lookahead, hence EXCEPT.

if(NOT ROOT)
  message(FATAL_ERROR "check_includes: pass -DROOT=<source dir>")
endif()

set(rule_count 0)
function(rule)
  cmake_parse_arguments(R "" "FILES;FORBID;EXCEPT;RULE" "" ${ARGN})
  math(EXPR i "${rule_count}")
  set(rule_files_${i} "${R_FILES}" PARENT_SCOPE)
  set(rule_forbid_${i} "${R_FORBID}" PARENT_SCOPE)
  set(rule_except_${i} "${R_EXCEPT}" PARENT_SCOPE)
  set(rule_text_${i} "${R_RULE}" PARENT_SCOPE)
  math(EXPR n "${rule_count} + 1")
  set(rule_count ${n} PARENT_SCOPE)
endfunction()

# The engine: run_scenario's event loop and the Engine that wires the domains together.
set(engine "^model/(cluster_simulation\\.hpp|detail/)")

# Between the folders (targets): sim <- model <- {scenarios/loader, analysis} <- cli.
rule(FILES "^sim/" FORBID "^(model|scenarios|analysis|cli|tests|bench|fuzz)/"
     RULE "sim/ includes nothing of ours outside sim/")
rule(FILES "^model/" FORBID "^(scenarios|analysis|cli)/"
     RULE "model/ does not include scenarios/, analysis/ or cli/")
rule(FILES "^model/" FORBID "^(yaml-cpp|nlohmann)/|^boost/program_options"
     RULE "model/ does no I/O: no yaml-cpp, nlohmann-json or Program_options")
rule(FILES "^scenarios/loader/" FORBID "^(analysis|cli)/"
     RULE "scenarios/loader/ does not include analysis/ or cli/")
rule(FILES "^analysis/" FORBID "^(scenarios|cli)/"
     RULE "analysis/ does not include scenarios/ or cli/ (it reports on model results)")
rule(FILES "^(sim|model|analysis|cli)/" FORBID "^yaml-cpp/"
     RULE "YAML is read in scenarios/loader/ only")
rule(FILES "^(sim|model|scenarios|analysis)/" FORBID "^boost/program_options"
     RULE "command-line options are parsed in cli/ only")

# Inside model/: the domains are folders; partitioners/ is the lowest, the engine the top.
rule(FILES "^model/partitioners/" FORBID "^model/(producer|cluster|placement|consumer|migration)/"
     RULE "model/partitioners/ does not include producer/, cluster/, placement/, consumer/ or migration/")
rule(FILES "^model/producer/" FORBID "^model/(cluster|placement|consumer|migration)/"
     RULE "model/producer/ does not include cluster/, placement/, consumer/ or migration/")
rule(FILES "^model/cluster/" FORBID "^model/(producer|placement|consumer|migration)/"
     RULE "model/cluster/ does not include producer/, placement/, consumer/ or migration/")
rule(FILES "^model/consumer/" FORBID "^model/(producer|placement|migration)/"
     RULE "model/consumer/ does not include producer/, placement/ or migration/")
rule(FILES "^model/migration/" FORBID "^model/(producer|placement|consumer)/"
     RULE "model/migration/ does not include producer/, placement/ or consumer/")
rule(FILES "^model/placement/" FORBID "^model/(producer|cluster|consumer|migration)/"
     RULE "model/placement/ does not include producer/, cluster/, consumer/ or migration/")
rule(FILES "^model/(partitioners|producer|cluster|consumer|placement|migration)/" FORBID "${engine}"
     RULE "a model/ domain does not include the engine (cluster_simulation.hpp, model/detail/)")
# The engine implements the facade, not the other way round: what it shares with callers
# (RunOptions, RunResult, Scenario) has headers of its own.
rule(FILES "^model/detail/" FORBID "^model/cluster_simulation\\.hpp$"
     RULE "model/detail/ does not include the facade model/cluster_simulation.hpp (RunOptions is in model/run_options.hpp)")
# The shared vocabulary at model/ root (scenario.hpp, run_result.hpp, run_estimate.hpp, ...)
# sits below the domains that use it; only partitioners/ (the partitioner kinds a scenario
# names) is below it.
rule(FILES "^model/[^/]+$" EXCEPT "^model/cluster_simulation\\.cpp$"
     FORBID "^model/(producer|cluster|placement|consumer|migration|detail)/"
     RULE "model/ root files (but the engine) include no domain folder but partitioners/")

file(GLOB_RECURSE sources RELATIVE "${ROOT}"
  "${ROOT}/sim/*.hpp" "${ROOT}/sim/*.cpp"
  "${ROOT}/model/*.hpp" "${ROOT}/model/*.cpp"
  "${ROOT}/scenarios/*.hpp" "${ROOT}/scenarios/*.cpp"
  "${ROOT}/analysis/*.hpp" "${ROOT}/analysis/*.cpp"
  "${ROOT}/cli/*.hpp" "${ROOT}/cli/*.cpp")
list(SORT sources)
list(LENGTH sources file_count)
if(file_count EQUAL 0)
  message(FATAL_ERROR "check_includes: no sources under ${ROOT}")
endif()

set(include_count 0)
set(violations 0)
math(EXPR last_rule "${rule_count} - 1")
foreach(path IN LISTS sources)
  # One list item per line: characters that CMake lists treat specially are masked first
  # (only include lines matter, and none has them).
  file(READ "${ROOT}/${path}" text)
  string(REGEX REPLACE "[][;\\]" "_" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(line_no 0)
  foreach(line IN LISTS lines)
    math(EXPR line_no "${line_no} + 1")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]")
      continue()
    endif()
    set(included "${CMAKE_MATCH_1}")
    math(EXPR include_count "${include_count} + 1")
    foreach(i RANGE ${last_rule})
      if(path MATCHES "${rule_files_${i}}" AND included MATCHES "${rule_forbid_${i}}")
        if(rule_except_${i} AND path MATCHES "${rule_except_${i}}")
          continue()
        endif()
        message("violation: ${path}:${line_no}: includes ${included}: ${rule_text_${i}}")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "check_includes: ${violations} forbidden include(s) in ${file_count} files (see "
                      "docs/layout.md)")
endif()
message("check_includes: ${include_count} includes in ${file_count} files follow the ${rule_count} rules")
