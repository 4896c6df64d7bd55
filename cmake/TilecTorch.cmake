# TilecTorch.cmake - build PyTorch extensions from tilec kernels.
#
#   tilec_find_torch([REQUIRED])
#   tilec_add_torch_extension(<name> [KERNELS k.cpp...] SOURCES binding.cpp...
#                             [MODE nvrtc|nvcc] [SPECIALIZE ...])
#
# tilec_find_torch asks a Python that has torch where LibTorch is, as
# torch.utils.cpp_extension does (include_paths(), library_paths(), the C++ ABI, whether it
# was built with CUDA): TILEC_TORCH_PYTHON if set, else python3 on PATH, else /usr/bin/python3.
# Without one, it looks for a plain LibTorch (Debian's libtorch-dev, or under Torch_ROOT):
# ATen/ATen.h, c10 and torch_cpu, c10_cuda when there is one, the new C++ ABI.
# It defines the INTERFACE target tilec::torch (headers, libraries, the ABI and
# TILEC_TORCH_CUDA) and sets TILEC_TORCH_FOUND, TILEC_TORCH_CUDA, TILEC_TORCH_VERSION and
# TILEC_TORCH_PYTHON_EXECUTABLE in the cache.
#
# tilec_add_torch_extension translates KERNELS (tilec_add_kernels; without KERNELS, the SOURCES
# whose text has the word TILEC_KERNEL, as scripts/pregenerate.sh picks them) and builds
# <name>.so from the other SOURCES, a
# shared library with torch.utils.cpp_extension's flags (TORCH_EXTENSION_NAME=<name>, the
# ABI). Its SOURCES register operators with TORCH_LIBRARY; Python loads it with
# torch.ops.load_library("<path>/<name>.so") and calls torch.ops.<namespace>.<op>(...).
# No Python headers are needed.

include_guard(GLOBAL)

function(tilec_find_torch)
  if(TARGET tilec::torch)
    return()
  endif()
  set(candidates "")
  if(TILEC_TORCH_PYTHON)
    list(APPEND candidates ${TILEC_TORCH_PYTHON})
  else()
    find_program(path_python python3)
    list(APPEND candidates ${path_python} /usr/bin/python3)
  endif()
  # One answer per line; lists joined with '|' (';' would split the lines).
  string(CONCAT query "import torch, torch.utils.cpp_extension as c\n"
                      "print('|'.join(c.include_paths()))\n"
                      "print('|'.join(c.library_paths()))\n"
                      "print(int(torch._C._GLIBCXX_USE_CXX11_ABI))\n"
                      "print(1 if torch.version.cuda else 0)\n"
                      "print(torch.__version__)\n")
  foreach(py IN LISTS candidates)
    if(NOT py OR NOT EXISTS ${py})
      continue()
    endif()
    execute_process(COMMAND ${py} -c "${query}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      set(python ${py})
      break()
    endif()
  endforeach()
  if(python)
    string(REPLACE "\n" ";" lines "${out}")
    list(GET lines 0 includes)
    list(GET lines 1 libdirs)
    list(GET lines 2 abi)
    list(GET lines 3 cuda)
    list(GET lines 4 version)
    string(REPLACE "|" ";" includes "${includes}")
    string(REPLACE "|" ";" libdirs "${libdirs}")
    set(found_by ${python})
  else()
    _tilec_find_plain_libtorch(includes libdirs cuda)
    set(abi 1)
    set(version "(LibTorch)")
    set(found_by "${includes}")
  endif()
  if(NOT includes)
    set(TILEC_TORCH_FOUND FALSE CACHE INTERNAL "")
    if(ARGV0 STREQUAL "REQUIRED")
      message(FATAL_ERROR "tilec: PyTorch not found: no Python with torch (tried: "
                          "${candidates}; set TILEC_TORCH_PYTHON) and no LibTorch (set Torch_ROOT)")
    endif()
    message(STATUS "tilec: PyTorch not found (no Python with torch among ${candidates}, no "
                   "LibTorch); torch parts skipped")
    return()
  endif()

  # The runtime's std::string and std::vector cross into the extension: one ABI for both.
  if(NOT abi EQUAL 1 AND NOT CMAKE_CXX_FLAGS MATCHES "_GLIBCXX_USE_CXX11_ABI=0")
    message(FATAL_ERROR "tilec: torch ${version} uses the old C++ ABI "
                        "(_GLIBCXX_USE_CXX11_ABI=0); configure tilec with "
                        "-DCMAKE_CXX_FLAGS=-D_GLIBCXX_USE_CXX11_ABI=0")
  endif()
  set(libs c10 torch torch_cpu)
  if(cuda)
    list(APPEND libs c10_cuda torch_cuda)
  endif()
  set(paths "")
  foreach(lib IN LISTS libs)
    find_library(TILEC_TORCH_LIB_${lib} ${lib} PATHS ${libdirs} NO_DEFAULT_PATH)
    if(NOT TILEC_TORCH_LIB_${lib})
      message(FATAL_ERROR "tilec: lib${lib} not found in ${libdirs} (torch ${version})")
    endif()
    list(APPEND paths ${TILEC_TORCH_LIB_${lib}})
  endforeach()

  add_library(tilec_torch INTERFACE)
  add_library(tilec::torch ALIAS tilec_torch)
  target_include_directories(tilec_torch SYSTEM INTERFACE ${includes})
  target_link_libraries(tilec_torch INTERFACE ${paths} tilec::headers)
  target_compile_definitions(tilec_torch INTERFACE _GLIBCXX_USE_CXX11_ABI=${abi}
                                                   TILEC_TORCH_CUDA=${cuda})
  target_compile_features(tilec_torch INTERFACE cxx_std_17)
  if(cuda)
    target_link_libraries(tilec_torch INTERFACE CUDA::cudart) # c10/cuda's headers
  endif()
  set(TILEC_TORCH_FOUND TRUE CACHE INTERNAL "")
  set(TILEC_TORCH_CUDA ${cuda} CACHE INTERNAL "")
  set(TILEC_TORCH_VERSION ${version} CACHE INTERNAL "")
  set(TILEC_TORCH_PYTHON_EXECUTABLE "${python}" CACHE INTERNAL "") # empty: LibTorch only
  message(STATUS "tilec: torch ${version} (CUDA: ${cuda}) through ${found_by}")
endfunction()

# A LibTorch without Python: its include folders, library folder and whether it has CUDA, or
# an empty <includes>.
function(_tilec_find_plain_libtorch includes libdirs cuda)
  set(${includes} "" PARENT_SCOPE)
  find_path(TILEC_LIBTORCH_INCLUDE ATen/ATen.h HINTS ${Torch_ROOT}/include)
  find_library(TILEC_LIBTORCH_CPU torch_cpu HINTS ${Torch_ROOT}/lib)
  if(NOT TILEC_LIBTORCH_INCLUDE OR NOT TILEC_LIBTORCH_CPU)
    return()
  endif()
  get_filename_component(dir ${TILEC_LIBTORCH_CPU} DIRECTORY)
  set(${includes} ${TILEC_LIBTORCH_INCLUDE} ${TILEC_LIBTORCH_INCLUDE}/torch/csrc/api/include
      PARENT_SCOPE)
  set(${libdirs} ${dir} PARENT_SCOPE)
  if(EXISTS ${dir}/libc10_cuda.so)
    set(${cuda} 1 PARENT_SCOPE)
  else()
    set(${cuda} 0 PARENT_SCOPE)
  endif()
endfunction()

function(tilec_add_torch_extension name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MODE" "KERNELS;SOURCES;SPECIALIZE")
  if(NOT ARG_KERNELS)
    set(bindings "")
    foreach(src IN LISTS ARG_SOURCES)
      get_filename_component(path ${src} ABSOLUTE)
      file(READ ${path} text)
      if(text MATCHES "TILEC_KERNEL")
        list(APPEND ARG_KERNELS ${src})
      else()
        list(APPEND bindings ${src})
      endif()
    endforeach()
    set(ARG_SOURCES ${bindings})
  endif()
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_KERNELS OR NOT ARG_SOURCES)
    message(FATAL_ERROR "usage: tilec_add_torch_extension(<name> [KERNELS k.cpp...] SOURCES "
                        "binding.cpp... [MODE nvrtc|nvcc] [SPECIALIZE ...]): needs kernel "
                        "sources (TILEC_KERNEL) and binding sources")
  endif()
  tilec_find_torch(REQUIRED)
  add_library(${name} MODULE ${ARG_SOURCES})
  # <name>.so, as torch.utils.cpp_extension names its outputs.
  set_target_properties(${name} PROPERTIES PREFIX "" CXX_VISIBILITY_PRESET hidden)
  target_compile_definitions(${name} PRIVATE TORCH_EXTENSION_NAME=${name})
  target_link_libraries(${name} PRIVATE tilec::torch)
  set(mode_args "")
  if(ARG_MODE)
    list(APPEND mode_args MODE ${ARG_MODE})
  endif()
  if(ARG_SPECIALIZE)
    list(APPEND mode_args SPECIALIZE ${ARG_SPECIALIZE})
  endif()
  tilec_add_kernels(${name} SOURCES ${ARG_KERNELS} ${mode_args})
endfunction()
