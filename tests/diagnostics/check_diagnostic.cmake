# Runs tilec on INPUT, requires exit status 1 (an error, not a crash) and no output files,
# then FileCheck's the CHECK lines of CHECKS against stderr.
# cmake -DTILEC=... -DFILECHECK=... -DCHECKS=t.cpp -DINPUT=t.cpp -DWORK=dir [-DARGS=a|b] -P ...
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${TILEC}" "${INPUT}" -o "${WORK}/out" ${args}
                OUTPUT_QUIET ERROR_FILE "${WORK}/stderr.txt" RESULT_VARIABLE rc)
file(READ "${WORK}/stderr.txt" err)
# RESULT_VARIABLE is a message such as "Segmentation fault" when tilec dies by a signal.
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "tilec must exit with status 1, got '${rc}'; stderr:\n${err}")
endif()
file(GLOB written "${WORK}/out/*")
if(written)
  message(FATAL_ERROR "a failed translation wrote ${written}")
endif()
execute_process(COMMAND "${FILECHECK}" "${CHECKS}" --input-file=${WORK}/stderr.txt
                RESULT_VARIABLE frc)
if(NOT frc STREQUAL "0")
  message(FATAL_ERROR "FileCheck failed; stderr was:\n${err}")
endif()
