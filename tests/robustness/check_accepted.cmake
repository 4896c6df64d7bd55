# An input tilec must translate into output that compiles: exit status 0, the .cu compiled by
# NVRTC (--check, no GPU needed) and the launcher header compiled by the host compiler.
# cmake -DTILEC=... -DCXX=... -DINCLUDE=<runtime include dir> -DINPUT=k.cpp -DWORK=dir
#       [-DARGS=a|b] -P check_accepted.cmake
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${TILEC}" "${INPUT}" -o "${WORK}/out" --check ${args}
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "tilec must translate ${INPUT} (exit 0), got '${rc}':\n${err}")
endif()
file(GLOB headers "${WORK}/out/*.tilec.h")
if(NOT headers)
  message(FATAL_ERROR "tilec wrote no launcher header for ${INPUT}")
endif()
foreach(header IN LISTS headers)
  # Included from a file of its own: the header is meant to be included, not compiled alone.
  file(WRITE "${WORK}/use_header.cpp" "#include \"${header}\"\n")
  execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only -I "${INCLUDE}"
                          "${WORK}/use_header.cpp"
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE crc)
  if(NOT crc STREQUAL "0")
    message(FATAL_ERROR "the launcher header of ${INPUT} does not compile:\n${out}")
  endif()
endforeach()
