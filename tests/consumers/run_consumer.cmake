# run_consumer.cmake - one consumer.* test (see CMakeLists.txt). Arguments (-D): HOW (install
# or subdirectory), TILEC_BUILD_DIR, TILEC_SOURCE_DIR, TRANSLATOR (the built tilec), PROJECT
# (the consumer's source), WORK (a scratch folder), GENERATOR, NVCC.
cmake_minimum_required(VERSION 3.24)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(configure_args -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=${NVCC})

if(HOW STREQUAL "install")
  # Install, then move the prefix: the package must not depend on where it was installed.
  run(${CMAKE_COMMAND} --install ${TILEC_BUILD_DIR} --prefix ${WORK}/installed)
  file(RENAME ${WORK}/installed ${WORK}/moved)
  set(prefix ${WORK}/moved)
  foreach(file bin/tilec include/tilec/tl.h include/tilec/device.cuh lib/libtilec_runtime.a
               lib/tilec/clang/include/stddef.h lib/cmake/tilec/tilecConfig.cmake
               lib/cmake/tilec/tilecConfigVersion.cmake lib/cmake/tilec/tilecTargets.cmake
               lib/cmake/tilec/TilecKernels.cmake)
    if(NOT EXISTS ${prefix}/${file})
      message(FATAL_ERROR "not installed: ${file}")
    endif()
  endforeach()
  # No folder of the source or build tree is compiled into what was installed.
  foreach(binary bin/tilec lib/libtilec_runtime.a)
    foreach(tree ${TILEC_SOURCE_DIR} ${TILEC_BUILD_DIR})
      string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" tree_regex "${tree}")
      file(STRINGS ${prefix}/${binary} hits REGEX "${tree_regex}")
      if(hits)
        list(GET hits 0 hit)
        message(FATAL_ERROR "${binary} names ${tree}: ${hit}")
      endif()
    endforeach()
  endforeach()
  run(${prefix}/bin/tilec --version)
  file(STRINGS ${TILEC_SOURCE_DIR}/CMakeLists.txt project_line REGEX "^project\\(tilec VERSION")
  string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" version "${project_line}")
  if(NOT out MATCHES "^tilec ${version}\nLLVM [0-9]+\\.[0-9]+\\.[0-9]+\nCUDA \\(NVRTC\\) [0-9]+\\.[0-9]+\n$")
    message(FATAL_ERROR "tilec --version printed:\n${out}")
  endif()
  # A translator copied away from its headers says what is missing instead of failing to
  # parse tilec/tl.h.
  file(COPY ${prefix}/bin/tilec DESTINATION ${WORK}/lonely/bin)
  execute_process(COMMAND ${WORK}/lonely/bin/tilec -o ${WORK}/lonely ${PROJECT}/vadd.cpp
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "incomplete installation")
    message(FATAL_ERROR "a translator without its headers exited ${rc}:\n${err}")
  endif()
  list(APPEND configure_args -Dtilec_DIR=${prefix}/lib/cmake/tilec)
else()
  # The translator of this build: a subproject need not build its own.
  list(APPEND configure_args -DTILEC_SOURCE_DIR=${TILEC_SOURCE_DIR} -DTILEC_TRANSLATOR=${TRANSLATOR})
endif()

run(${CMAKE_COMMAND} -S ${PROJECT} -B ${WORK}/build ${configure_args})
run(${CMAKE_COMMAND} --build ${WORK}/build -j 2)
if(HOW STREQUAL "subdirectory")
  # The parent's `all` built only what it uses: none of tilec's tests or examples.
  if(EXISTS ${WORK}/build/tilec/tests OR EXISTS ${WORK}/build/tilec/examples)
    message(FATAL_ERROR "the subproject configured tilec's tests or examples")
  endif()
endif()
foreach(program vadd_nvrtc vadd_nvcc)
  run(${WORK}/build/${program} --interpreter)
  message(STATUS "${program}: ${out}")
  if(NOT out MATCHES "ok: 1000 sums \\(interpreter\\)")
    message(FATAL_ERROR "${program} --interpreter printed:\n${out}")
  endif()
endforeach()
# On a GPU machine the GPU path too (the nvcc build must launch nvcc's kernel); without a GPU
# the programs say so and exit 77.
foreach(command "vadd_nvrtc" "vadd_nvcc;--expect-aot")
  list(TRANSFORM command PREPEND ${WORK}/build/ AT 0)
  # A cache of its own: a kernel from an earlier run's disk cache would count as NVRTC's.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TILEC_CACHE_DIR=${WORK}/cache ${command}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(JOIN " " shown ${command})
  message(STATUS "${shown}: ${out}")
  if(NOT (rc EQUAL 0 AND out MATCHES "ok: 1000 sums \\(GPU\\)")
     AND NOT (rc EQUAL 77 AND out MATCHES "SKIPPED: no GPU"))
    message(FATAL_ERROR "${shown} exited ${rc}:\n${out}")
  endif()
endforeach()
