# Tile dimensions known only per specialization are checked where the launcher is
# instantiated: a host call with BLOCK = 1000 does not compile and the message names the
# dimension; BLOCK = 1024 compiles.
# cmake -DTILEC=... -DCXX=... -DINCLUDE=<runtime include dir> -DKERNEL=vector_add.cpp
#       -DWORK=dir -P launcher_tile_check.cmake
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${TILEC}" "${KERNEL}" -o "${WORK}" RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "tilec failed on ${KERNEL}:\n${err}")
endif()
get_filename_component(stem "${KERNEL}" NAME_WLE)
foreach(block 1024 1000)
  file(WRITE "${WORK}/call_${block}.cpp"
       "#include \"${stem}.tilec.h\"\n"
       "void call(const float *x, const float *y, float *out, int n) {\n"
       "  add_kernel<${block}>(tilec::Grid{1}, nullptr, x, y, out, n);\n"
       "}\n")
  execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only -I "${INCLUDE}" -I "${WORK}"
                          "${WORK}/call_${block}.cpp"
                  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE crc)
  if(block STREQUAL "1024" AND NOT crc STREQUAL "0")
    message(FATAL_ERROR "add_kernel<1024> must compile:\n${out}")
  endif()
  if(block STREQUAL "1000" AND (crc STREQUAL "0" OR NOT out MATCHES
     "add_kernel: tile dimension BLOCK must be a power of two <= 2\\^20"))
    message(FATAL_ERROR "add_kernel<1000> must fail to compile, naming BLOCK:\n${out}")
  endif()
endforeach()
