# ptxas.corpus_<stem>: translates a corpus file at its --aot specializations (every DIV16
# variant), compiles the result with nvcc for sm_90a under ptxas -v, and fails when any
# specialization spills more than MAX_SPILL bytes a thread. Register pressure that grows
# (a fully unrolled long dot once spilled 6 KB in vLLM's MLA decode) shows here without a GPU.
#
# Inputs: TILEC, NVCC, INPUT, WORK, ARGS (the --aot options joined by '|'), TEMPLATES_DIR,
# INCLUDE_DIR, MAX_SPILL.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${TILEC}" "${INPUT}" -o "${WORK}" ${args}
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "tilec failed (${rc}):\n${err}")
endif()
get_filename_component(stem "${INPUT}" NAME_WE)
execute_process(COMMAND "${NVCC}" -arch=sm_90a -cubin -Xptxas -v -std=c++17 -w
                        "-I${TEMPLATES_DIR}" "-I${INCLUDE_DIR}" -o "${WORK}/${stem}.cubin"
                        "${WORK}/${stem}.aot.cu"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "nvcc failed (${rc}):\n${err}")
endif()
string(REGEX MATCHALL "Function properties for [^\n]+\n[^\n]+" props "${out}${err}")
list(LENGTH props count)
if(count EQUAL 0)
  message(FATAL_ERROR "no ptxas report in nvcc's output:\n${out}${err}")
endif()
set(worst 0)
set(over "")
foreach(p IN LISTS props)
  if(NOT p MATCHES "for ([^\n]+)\n.* ([0-9]+) bytes spill stores")
    message(FATAL_ERROR "unexpected ptxas report: ${p}")
  endif()
  set(name "${CMAKE_MATCH_1}")
  set(bytes "${CMAKE_MATCH_2}")
  if(bytes GREATER worst)
    set(worst ${bytes})
  endif()
  if(bytes GREATER MAX_SPILL)
    string(APPEND over "  ${name}: ${bytes} bytes\n")
  endif()
endforeach()
if(over)
  message(FATAL_ERROR "specializations spilling more than the ${MAX_SPILL} bytes allowed for "
                      "${stem}:\n${over}")
endif()
message(STATUS "${count} specializations, at most ${worst} bytes spilled (allowed ${MAX_SPILL})")
