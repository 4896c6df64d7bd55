# Package.cmake - `cpack -G DEB` in the build folder makes tilec_<version>_<arch>.deb of what
# `cmake --install` lays out (cmake/Install.cmake), under /usr. It depends on the LLVM/Clang
# and Boost libraries the translator was built with; the CUDA toolkit (NVRTC, nvcc) is expected
# where NVIDIA's installer puts it and is not declared.
set(CPACK_PACKAGE_NAME tilec)
set(CPACK_PACKAGE_VENDOR tilec)
set(CPACK_PACKAGE_CONTACT "tilec maintainers <tilec@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Tile kernels written in C++, translated to CUDA and compiled with NVRTC or nvcc")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
if(TILEC_DEB_DEPENDS)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${TILEC_DEB_DEPENDS}")
endif()
include(CPack)
