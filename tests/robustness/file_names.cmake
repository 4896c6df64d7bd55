# Input file names that are not C++ identifiers: translated (the launcher namespace spells the
# nearest identifier) into output that NVRTC and the host compiler accept; inputs whose
# outputs would collide, and names that cannot be written into C++ strings, are refused
# before anything is written.
# cmake -DTILEC=... -DCXX=... -DINCLUDE=<runtime include dir> -DKERNEL=k.cpp -DWORK=dir -P ...
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/in/sub")

set(names "2fast" "my-kernel" "v1.2" "namespace" "with space" "tilec")
set(inputs)
foreach(n IN LISTS names)
  configure_file("${KERNEL}" "${WORK}/in/${n}.cpp" COPYONLY)
  list(APPEND inputs "${WORK}/in/${n}.cpp")
endforeach()
execute_process(COMMAND "${TILEC}" ${inputs} -o "${WORK}/out" --check
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "tilec must translate every file name, got '${rc}':\n${err}")
endif()
foreach(n IN LISTS names)
  # Each header alone: they all launch the same kernel name.
  file(WRITE "${WORK}/use.cpp" "#include \"${WORK}/out/${n}.tilec.h\"\n")
  execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only -I "${INCLUDE}" "${WORK}/use.cpp"
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE crc)
  if(NOT crc STREQUAL "0")
    message(FATAL_ERROR "the launcher header of '${n}.cpp' does not compile:\n${out}")
  endif()
endforeach()

# refused(<expected stderr regex> <input>...): exit status 1, the message, nothing written.
function(refused regex)
  file(REMOVE_RECURSE "${WORK}/refused")
  execute_process(COMMAND "${TILEC}" ${ARGN} -o "${WORK}/refused"
                  OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "1" OR NOT err MATCHES "${regex}")
    message(FATAL_ERROR "expected status 1 and '${regex}', got '${rc}':\n${err}")
  endif()
  if(EXISTS "${WORK}/refused")
    message(FATAL_ERROR "a refused translation wrote into ${WORK}/refused")
  endif()
endfunction()
configure_file("${KERNEL}" "${WORK}/in/sub/2fast.cpp" COPYONLY)
configure_file("${KERNEL}" "${WORK}/in/my_kernel.cpp" COPYONLY)
configure_file("${KERNEL}" "${WORK}/in/quote\".cpp" COPYONLY)
refused("tilec: error: '[^']*/2fast.cpp' and '[^']*/sub/2fast.cpp' would both be translated into 2fast.cu and 2fast.tilec.h; translate them into different folders \\(-o\\)"
        "${WORK}/in/2fast.cpp" "${WORK}/in/sub/2fast.cpp")
refused("would both declare their launchers in namespace tilec_generated::my_kernel; rename one of them"
        "${WORK}/in/my-kernel.cpp" "${WORK}/in/my_kernel.cpp")
refused("file names with quotes, backslashes or control characters cannot be written into the generated code; rename the file"
        "${WORK}/in/quote\".cpp")
