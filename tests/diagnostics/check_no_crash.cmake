# Runs tilec over every file in INPUTS ('|'-separated): each must translate (exit 0) or be
# rejected with diagnostics (exit 1), never crash (a signal or any other status).
string(REPLACE "|" ";" inputs "${INPUTS}")
foreach(input IN LISTS inputs)
  execute_process(COMMAND "${TILEC}" "${input}" -o "${WORK}" -I "${INCLUDE}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc STREQUAL "0" AND NOT rc STREQUAL "1")
    message(FATAL_ERROR "tilec ended with '${rc}' on ${input}")
  endif()
endforeach()
