# TilecKernels.cmake - run the tilec translator as a build step.
#
#   tilec_add_kernels(<target> SOURCES k.cpp... [SPECIALIZE "add_kernel<1024>" ...]
#                     [MODE nvrtc|nvcc] [LINE_DIRECTIVES])
#
# Each kernel source k.cpp becomes ${CMAKE_CURRENT_BINARY_DIR}/tilec_gen/<target>/k.cu and
# k.tilec.h (the launcher header, which embeds the CUDA text for NVRTC). That folder is added
# to <target>'s include directories and <target> links tilec::runtime, so `#include
# "k.tilec.h"` is all a program needs.
#
# The same file serves tilec's own build, a parent project that adds tilec with
# add_subdirectory/FetchContent, and an installed tilec (find_package): it relies on targets
# (tilec::tilec, tilec::runtime, tilec::device, CUDA::cudart) and cache variables only,
# never on variables of the directory that included it.
#
# MODE nvcc (default nvrtc) also compiles the listed specializations ahead of time: the
# translator writes k.aot.cu (registers them with tilec::register_aot_kernel at static-init
# time), nvcc compiles it into <target>, and launches of those specializations skip NVRTC.
# A SPECIALIZE entry is "kernel<args>" or "kernel<args>:num_warps:num_stages".
#
# LINE_DIRECTIVES translates with --line-directives: the CUDA carries #line back to k.cpp, so
# profilers and compiler messages cite the kernel's own lines (kernels are always compiled with
# line info). It costs the generated file some readability, hence off by default.
#
# Without the translator (TILEC_BUILD_TRANSLATOR=OFF, e.g. on a GPU machine without
# libclang) the same files are copied from the flat folder TILEC_PREGENERATED_DIR, which
# scripts/pregenerate.sh fills.

include_guard(GLOBAL)

# SASS targets for ahead-of-time kernels. 90a is Hopper with wgmma/setmaxnreg; it needs
# -gencode with compute_90a (plain -arch=sm_90a also runs a sm_90 pass that rejects them).
set(TILEC_AOT_ARCHITECTURES "90a;80" CACHE STRING "GPU architectures for MODE nvcc kernels")

# Sets <out> to TRUE when kernels can be generated: either the translator target exists or a
# folder of pre-generated sources was given. Callers skip their kernel targets otherwise.
function(tilec_kernels_available out)
  if(TARGET tilec::tilec OR TILEC_PREGENERATED_DIR)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Prepares <target>'s CUDA sources: `-gencode` for each of TILEC_AOT_ARCHITECTURES (CMake's
# CUDA_ARCHITECTURES is switched off so that no extra default-arch pass runs), C++17 (what
# NVRTC uses too; older CMake does not know nvcc's C++20 flag), and the shared CUDA runtime,
# so that a program that also links CUDA::cudart has one runtime.
function(tilec_configure_cuda_target target)
  set(flags "-lineinfo") # source lines for profilers; the code is the same
  foreach(arch IN LISTS TILEC_AOT_ARCHITECTURES)
    list(APPEND flags "-gencode=arch=compute_${arch},code=sm_${arch}")
  endforeach()
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF CUDA_STANDARD 17
                                             CUDA_RUNTIME_LIBRARY Shared)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${flags}>")
  if(NOT TARGET CUDA::cudart) # a caller that is neither tilec nor found it through tilec
    find_package(CUDAToolkit REQUIRED)
  endif()
  target_link_libraries(${target} PRIVATE CUDA::cudart)
endfunction()

# Sets <out> to TRUE unless kernels come from TILEC_PREGENERATED_DIR (no translator) and that
# folder lacks the .cu of one of the SOURCES (an older folder may predate them); then warns that
# <what> is skipped and sets FALSE.
function(tilec_pregenerated_present out what)
  set(ok TRUE)
  if(NOT TARGET tilec::tilec)
    foreach(src IN LISTS ARGN)
      get_filename_component(stem ${src} NAME_WLE)
      if(NOT EXISTS ${TILEC_PREGENERATED_DIR}/${stem}.cu)
        message(WARNING "tilec: ${what} skipped: ${TILEC_PREGENERATED_DIR}/${stem}.cu is missing "
                        "(rerun scripts/pregenerate.sh)")
        set(ok FALSE)
      endif()
    endforeach()
  endif()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "LINE_DIRECTIVES" "MODE" "SOURCES;SPECIALIZE")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernels: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "tilec_add_kernels(${target}): SOURCES is empty")
  endif()
  if(NOT ARG_MODE)
    set(ARG_MODE nvrtc)
  endif()
  if(NOT ARG_MODE MATCHES "^(nvrtc|nvcc)$")
    message(FATAL_ERROR "tilec_add_kernels(${target}): MODE must be nvrtc or nvcc")
  endif()
  if(ARG_SPECIALIZE AND ARG_MODE STREQUAL "nvrtc")
    message(WARNING "tilec_add_kernels(${target}): SPECIALIZE only matters in MODE nvcc")
  endif()
  if(NOT TARGET tilec::tilec AND NOT TILEC_PREGENERATED_DIR)
    message(FATAL_ERROR "tilec_add_kernels(${target}): no translator (target 'tilec') and no "
                        "TILEC_PREGENERATED_DIR; build with TILEC_BUILD_TRANSLATOR=ON or run "
                        "scripts/pregenerate.sh and pass its folder")
  endif()

  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/tilec_gen/${target})
  file(MAKE_DIRECTORY ${gen_dir})

  set(aot_args "")
  if(ARG_LINE_DIRECTIVES)
    list(APPEND aot_args "--line-directives")
  endif()
  if(ARG_MODE STREQUAL "nvcc")
    foreach(spec IN LISTS ARG_SPECIALIZE)
      list(APPEND aot_args "--aot=${spec}")
    endforeach()
  endif()

  # The translator parses the vocabulary headers: their changes re-translate (no depfile yet).
  # In tilec's source tree they sit beside this file's folder; installed, they change only
  # with the translator, which is a dependency anyway.
  set(vocabulary "")
  set(source_vocabulary ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../runtime/include)
  if(EXISTS ${source_vocabulary}/tilec/tl.h)
    file(GLOB_RECURSE vocabulary CONFIGURE_DEPENDS ${source_vocabulary}/tilec/*.h)
  endif()
  # A built translator is a target-level dependency; an imported one (installed, or
  # TILEC_TRANSLATOR) a file dependency.
  if(TARGET tilec::tilec)
    get_target_property(translator tilec::tilec ALIASED_TARGET)
    if(NOT translator)
      set(translator $<TARGET_FILE:tilec::tilec>)
    endif()
  endif()

  set(generated "")
  set(aot_sources "")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(src_abs ${src} ABSOLUTE)
    get_filename_component(stem ${src} NAME_WLE) # as tilec: v1.2.cpp -> v1.2.cu
    set(outputs ${gen_dir}/${stem}.cu ${gen_dir}/${stem}.tilec.h)
    if(ARG_MODE STREQUAL "nvcc")
      list(APPEND outputs ${gen_dir}/${stem}.aot.cu)
      list(APPEND aot_sources ${gen_dir}/${stem}.aot.cu)
    endif()

    if(TARGET tilec::tilec)
      add_custom_command(
        OUTPUT ${outputs}
        COMMAND $<TARGET_FILE:tilec::tilec> -o ${gen_dir} ${aot_args} ${src_abs}
        DEPENDS ${src_abs} ${translator} ${vocabulary}
        COMMENT "tilec: translating ${src} for ${target}"
        VERBATIM)
    else()
      _tilec_copy_pregenerated("${target}" "${stem}" "${gen_dir}" "${outputs}")
    endif()
    list(APPEND generated ${outputs})
  endforeach()

  # The launcher headers must exist before any of the target's sources compile.
  target_sources(${target} PRIVATE ${generated})
  set_source_files_properties(${generated} PROPERTIES GENERATED TRUE HEADER_FILE_ONLY TRUE)
  target_include_directories(${target} PRIVATE ${gen_dir})
  target_link_libraries(${target} PRIVATE tilec::runtime)

  if(ARG_MODE STREQUAL "nvcc")
    _tilec_add_aot_sources(${target} "${aot_sources}")
  endif()
endfunction()

# Copies <stem>.cu/.tilec.h[/.aot.cu] from TILEC_PREGENERATED_DIR into the target's folder;
# re-copies when the pre-generated files change.
function(_tilec_copy_pregenerated target stem gen_dir outputs)
  set(inputs "")
  set(commands "")
  foreach(out IN LISTS outputs)
    get_filename_component(name ${out} NAME)
    set(in ${TILEC_PREGENERATED_DIR}/${name})
    if(NOT EXISTS ${in})
      message(FATAL_ERROR "tilec_add_kernels(${target}): ${in} is missing; regenerate the "
                          "folder with scripts/pregenerate.sh <tilec> ${TILEC_PREGENERATED_DIR}")
    endif()
    list(APPEND inputs ${in})
    list(APPEND commands COMMAND ${CMAKE_COMMAND} -E copy_if_different ${in} ${out})
  endforeach()
  add_custom_command(
    OUTPUT ${outputs}
    ${commands}
    DEPENDS ${inputs}
    COMMENT "tilec: copying pre-generated ${stem} for ${target}"
    VERBATIM)
endfunction()

# Compiles the ahead-of-time translation units with nvcc. The caller's directory must have
# called enable_language(CUDA) (CMake allows that only at directory scope).
function(_tilec_add_aot_sources target aot_sources)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "tilec_add_kernels(${target}) MODE nvcc: call enable_language(CUDA) "
                        "in this directory first")
  endif()
  set_source_files_properties(${aot_sources} PROPERTIES HEADER_FILE_ONLY FALSE LANGUAGE CUDA)
  # The generated .cu includes the device library (for CUDA sources only, see tilec::device).
  target_link_libraries(${target} PRIVATE tilec::device)
  tilec_configure_cuda_target(${target})
endfunction()

# Enables the CUDA language in the calling directory, finding nvcc through the CUDA toolkit
# when it is not on PATH. A macro: enable_language must run at directory scope.
macro(tilec_enable_cuda)
  if(NOT CMAKE_CUDA_COMPILER AND CUDAToolkit_NVCC_EXECUTABLE)
    set(CMAKE_CUDA_COMPILER ${CUDAToolkit_NVCC_EXECUTABLE})
  elseif(NOT CMAKE_CUDA_COMPILER AND TILEC_NVCC_EXECUTABLE)
    # A parent project of tilec's: FindCUDAToolkit's variables stayed in tilec's directory.
    set(CMAKE_CUDA_COMPILER ${TILEC_NVCC_EXECUTABLE})
  endif()
  enable_language(CUDA)
endmacro()
