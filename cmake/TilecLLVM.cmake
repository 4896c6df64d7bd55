# TilecLLVM.cmake - find the LLVM/Clang the translator is built with, and say clearly what to
# do when there is none it supports.
#
# Supported: LLVM/Clang 18, 19 and 20 (TILEC_LLVM_VERSIONS; 19 is the one CI builds with).
# An explicit LLVM_DIR (and Clang_DIR, else the clang beside it) wins; otherwise the
# distribution folders /usr/lib/llvm-<N> are searched, newest supported first.

include_guard(GLOBAL)

set(TILEC_LLVM_VERSIONS 20 19 18)

macro(tilec_find_llvm)
  if(NOT LLVM_DIR)
    foreach(v IN LISTS TILEC_LLVM_VERSIONS)
      if(EXISTS /usr/lib/llvm-${v}/lib/cmake/llvm/LLVMConfig.cmake AND
         EXISTS /usr/lib/llvm-${v}/lib/cmake/clang/ClangConfig.cmake)
        set(LLVM_DIR /usr/lib/llvm-${v}/lib/cmake/llvm CACHE PATH "LLVM's CMake package folder")
        break()
      endif()
    endforeach()
  endif()
  list(JOIN TILEC_LLVM_VERSIONS ", " tilec_llvm_list)
  if(NOT LLVM_DIR)
    message(FATAL_ERROR
      "tilec: no LLVM/Clang development files found (supported: ${tilec_llvm_list}).\n"
      "  Debian 12 / Ubuntu 24.04: scripts/setup.sh installs them (llvm-19-dev, libclang-19-dev,\n"
      "  libclang-cpp19-dev, clang-19). Elsewhere install one of those versions (apt.llvm.org has\n"
      "  packages for older distributions) or pass -DLLVM_DIR=<prefix>/lib/cmake/llvm.")
  endif()
  set(tilec_llvm_dir ${LLVM_DIR}) # find_package resets it when it finds nothing
  find_package(LLVM CONFIG PATHS ${LLVM_DIR} NO_DEFAULT_PATH)
  if(NOT LLVM_FOUND)
    message(FATAL_ERROR
      "tilec: LLVM_DIR=${tilec_llvm_dir} holds no LLVMConfig.cmake; point it at "
      "<llvm prefix>/lib/cmake/llvm of LLVM ${tilec_llvm_list} (e.g. /usr/lib/llvm-19/lib/cmake/llvm).")
  endif()
  if(NOT LLVM_VERSION_MAJOR IN_LIST TILEC_LLVM_VERSIONS)
    message(FATAL_ERROR
      "tilec: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR} is not supported; the translator "
      "builds with LLVM/Clang ${tilec_llvm_list}. Install one of them and pass "
      "-DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm (or the folder of the version you have).")
  endif()
  if(NOT Clang_DIR)
    get_filename_component(tilec_llvm_cmake_root ${LLVM_DIR} DIRECTORY)
    set(Clang_DIR ${tilec_llvm_cmake_root}/clang CACHE PATH "Clang's CMake package folder")
  endif()
  find_package(Clang CONFIG PATHS ${Clang_DIR} NO_DEFAULT_PATH)
  if(NOT Clang_FOUND)
    message(FATAL_ERROR
      "tilec: LLVM ${LLVM_PACKAGE_VERSION} was found at ${LLVM_DIR} but not its Clang "
      "development files (${Clang_DIR}); install libclang-${LLVM_VERSION_MAJOR}-dev and "
      "libclang-cpp${LLVM_VERSION_MAJOR}-dev, or pass -DClang_DIR.")
  endif()
  # For the tests' FileCheck, found beside the LLVM in use.
  set(TILEC_LLVM_TOOLS_DIR ${LLVM_TOOLS_BINARY_DIR} CACHE INTERNAL "bin folder of the LLVM in use")
  message(STATUS "tilec: translator built with LLVM/Clang ${LLVM_PACKAGE_VERSION} (${LLVM_DIR})")
endmacro()
