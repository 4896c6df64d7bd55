# Runs tilec on INPUT into WORK, then FileCheck on each output whose prefix INPUT uses.
# cmake -DTILEC=... -DFILECHECK=... -DINPUT=k.cpp -DWORK=dir [-DARGS=a|b|c] -P check_translation.cmake
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${TILEC}" "${INPUT}" -o "${WORK}" ${args}
                OUTPUT_FILE "${WORK}/dump.txt" ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "tilec ${INPUT} ${args} failed (${rc}):\n${err}")
endif()
# A golden input translates cleanly: no warnings either.
if(NOT err STREQUAL "")
  message(FATAL_ERROR "tilec wrote to stderr:\n${err}")
endif()

get_filename_component(stem "${INPUT}" NAME_WE)
file(READ "${INPUT}" source)
set(checked 0)
foreach(pair "IR=dump.txt" "CU=${stem}.cu" "H=${stem}.tilec.h" "AOT=${stem}.aot.cu")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 prefix)
  list(GET pair 1 output)
  if(NOT source MATCHES "// ${prefix}(-NEXT|-NOT|-SAME|-DAG|-LABEL)?:")
    continue()
  endif()
  if(NOT EXISTS "${WORK}/${output}")
    message(FATAL_ERROR "${INPUT} has ${prefix}: checks but tilec wrote no ${output}")
  endif()
  execute_process(COMMAND "${FILECHECK}" "${INPUT}" --check-prefix=${prefix}
                          --input-file=${WORK}/${output}
                  RESULT_VARIABLE frc)
  if(NOT frc STREQUAL "0")
    message(FATAL_ERROR "FileCheck --check-prefix=${prefix} failed on ${WORK}/${output}")
  endif()
  math(EXPR checked "${checked} + 1")
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "${INPUT} has no IR:, CU:, H: or AOT: checks")
endif()
