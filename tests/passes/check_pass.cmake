# Runs tilec-opt on INPUT with --run-pass=PASSES, then FileCheck's the CHECK lines of INPUT
# against the IR it prints; with FAILS, requires exit status 1 and checks the ERR lines
# against stderr instead.
# cmake -DTILEC_OPT=... -DFILECHECK=... -DINPUT=t.ir -DPASSES=a,b -DFAILS=ON|OFF -DWORK=dir -P ...
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${TILEC_OPT}" "${INPUT}" --run-pass=${PASSES}
                OUTPUT_FILE "${WORK}/out.ir" ERROR_FILE "${WORK}/stderr.txt" RESULT_VARIABLE rc)
file(READ "${WORK}/stderr.txt" err)
if(FAILS)
  if(NOT rc STREQUAL "1")
    message(FATAL_ERROR "tilec-opt must exit with status 1, got '${rc}'; stderr:\n${err}")
  endif()
  set(prefix ERR)
  set(checked "${WORK}/stderr.txt")
else()
  if(NOT rc STREQUAL "0" OR NOT err STREQUAL "")
    message(FATAL_ERROR "tilec-opt ${INPUT} --run-pass=${PASSES} failed (${rc}):\n${err}")
  endif()
  set(prefix CHECK)
  set(checked "${WORK}/out.ir")
endif()
execute_process(COMMAND "${FILECHECK}" "${INPUT}" --check-prefix=${prefix}
                        --input-file=${checked} RESULT_VARIABLE frc)
if(NOT frc STREQUAL "0")
  message(FATAL_ERROR "FileCheck --check-prefix=${prefix} failed on ${checked}")
endif()
