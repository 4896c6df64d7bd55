# A short fuzzing run (ctest fuzz.smoke): the seeds are the repository's kernels; any crash,
# sanitizer report, timeout or out-of-memory fails the test, and the input that did it is left
# in WORK (crash-*, timeout-*, oom-*) to become a regression input.
# cmake -DFUZZER=... -DSEEDS=<source root> -DWORK=dir -DSECONDS=n -P smoke.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/seeds" "${WORK}/corpus")
# The repository's kernels only: replaying seeds takes most of a short run (each input parses
# the vocabulary header under the sanitizers), and mutating them is the point.
file(GLOB seeds "${SEEDS}/examples/*/*.cpp" "${SEEDS}/tests/translate/*.cpp")
foreach(s IN LISTS seeds)
  file(STRINGS "${s}" kernels REGEX "TILEC_KERNEL")
  if(kernels)
    file(COPY "${s}" DESTINATION "${WORK}/seeds")
  endif()
endforeach()
execute_process(COMMAND "${FUZZER}" "${WORK}/corpus" "${WORK}/seeds" -max_total_time=${SECONDS}
                        -timeout=30 -rss_limit_mb=6144 -max_len=8192 -print_final_stats=1
                        "-artifact_prefix=${WORK}/"
                OUTPUT_FILE "${WORK}/fuzz.log" ERROR_FILE "${WORK}/fuzz.log"
                RESULT_VARIABLE rc)
file(READ "${WORK}/fuzz.log" log)
string(REGEX MATCHALL "stat::[a-z_]+: *[0-9]+" stats "${log}")
string(JOIN ", " stats ${stats})
message(STATUS "fuzz.smoke: ${stats}")
if(NOT rc STREQUAL "0")
  string(LENGTH "${log}" n)
  if(n GREATER 6000)
    math(EXPR from "${n} - 6000")
    string(SUBSTRING "${log}" ${from} 6000 log)
  endif()
  file(GLOB found "${WORK}/crash-*" "${WORK}/timeout-*" "${WORK}/oom-*" "${WORK}/leak-*")
  message(FATAL_ERROR "the fuzzer found a failure (status '${rc}'): ${found}\n${log}")
endif()
