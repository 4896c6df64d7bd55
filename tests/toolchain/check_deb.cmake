# check_deb.cmake - cpack -G DEB on the build folder, then the package holds the installed
# layout (translator, headers, runtime, CMake package) under /usr and declares its
# dependencies. -DBUILD=<build folder> -DOUT=<scratch folder>.
find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  message("SKIP: dpkg-deb is not installed")
  cmake_language(EXIT 77)
endif()
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${CMAKE_CPACK_COMMAND} -G DEB -B ${OUT} --config ${BUILD}/CPackConfig.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed (${rc}):\n${log}")
endif()
file(GLOB debs ${OUT}/tilec_*.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one tilec_*.deb in ${OUT}, found: ${debs}\n${log}")
endif()
execute_process(COMMAND ${DPKG_DEB} -c ${debs} OUTPUT_VARIABLE contents RESULT_VARIABLE rc)
execute_process(COMMAND ${DPKG_DEB} -f ${debs} Depends OUTPUT_VARIABLE depends)
foreach(path ./usr/bin/tilec ./usr/bin/tilec-opt ./usr/include/tilec/tl.h
             ./usr/include/tilec/profile.h ./usr/include/tilec/device.cuh
             ./usr/lib/tilec/clang/include/stddef.h ./usr/lib/cmake/tilec/tilecConfig.cmake
             ./usr/lib/cmake/tilec/TilecKernels.cmake)
  string(FIND "${contents}" " ${path}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${debs} lacks ${path}:\n${contents}")
  endif()
endforeach()
if(NOT contents MATCHES " ./usr/lib[^ ]*/libtilec_runtime.a\n")
  message(FATAL_ERROR "${debs} lacks libtilec_runtime.a:\n${contents}")
endif()
if(NOT depends MATCHES "libclang-cpp[0-9]+" OR NOT depends MATCHES "libboost-program-options")
  message(FATAL_ERROR "${debs} declares Depends: '${depends}'")
endif()
message("ok: ${debs} (Depends: ${depends})")
