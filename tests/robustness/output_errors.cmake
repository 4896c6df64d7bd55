# Failures after translation say why and stay text: -o where no folder can be made gives the
# system's reason, and a --check that NVRTC refuses prints its log without a NUL byte.
# cmake -DTILEC=... -DKERNEL=vector_add.cpp -DFP8_KERNEL=dot.cpp -DWORK=dir -P ...
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/a_file" "") # -o beneath a file: no folder can be made there
execute_process(COMMAND "${TILEC}" "${KERNEL}" -o "${WORK}/a_file/out"
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "1" OR NOT err MATCHES
   "tilec: error: cannot write the output into '[^']*/a_file/out': cannot create the folder: Not a directory")
  message(FATAL_ERROR "expected status 1 and the reason, got '${rc}':\n${err}")
endif()
# fp8 tl::dot on sm_80: translated, then refused by the device library under NVRTC.
execute_process(COMMAND "${TILEC}" "${FP8_KERNEL}" -o "${WORK}/fp8" --check --arch=sm_80
                        --aot=dot_tile<16,16,32,tl::float8_e4m3,float,false>:1
                OUTPUT_QUIET ERROR_FILE "${WORK}/fp8_stderr.txt" RESULT_VARIABLE rc)
file(READ "${WORK}/fp8_stderr.txt" err)
if(NOT rc STREQUAL "1" OR NOT err MATCHES "NVRTC failed for sm_80")
  message(FATAL_ERROR "expected an NVRTC failure, got '${rc}':\n${err}")
endif()
file(READ "${WORK}/fp8_stderr.txt" hex HEX)
string(REGEX MATCH "^(..)*00" nul "${hex}")
if(nul)
  message(FATAL_ERROR "the --check failure output has a NUL byte")
endif()
