# nvcc_compile.cmake - compiles SOURCE with nvcc, the way ahead-of-time kernels are built,
# for sm_90a (arch-specific: `-gencode`, not `-arch`, so no plain sm_90 pass) and sm_80.
# Usage: cmake -DNVCC=<nvcc> -DSOURCE=<file.cu> -DTEMPLATES_DIR=<dir> -DOUT_DIR=<dir>
#        -P nvcc_compile.cmake
foreach(arch 90a 80)
  execute_process(
    COMMAND ${NVCC} -std=c++17 -gencode=arch=compute_${arch},code=sm_${arch} -I${TEMPLATES_DIR}
            -c ${SOURCE} -o ${OUT_DIR}/instantiate.sm_${arch}.o
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc failed for sm_${arch} (${rc}):\n${out}")
  endif()
  message(STATUS "nvcc sm_${arch}: ok ${out}")
endforeach()
