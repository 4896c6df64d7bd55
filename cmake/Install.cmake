# Install.cmake - `cmake --install <build> --prefix P` lays out a relocatable package:
#   P/bin/tilec                      the translator (finds the rest relative to itself)
#   P/bin/tilec-opt                  passes on printed tile IR (for compiler work)
#   P/include/tilec/...              the vocabulary, interpreter and runtime headers, and the
#                                    device library for nvcc (tilec/device.cuh, tilec/device/)
#   P/lib/libtilec_runtime.a         the runtime (its NVRTC path embeds the device library)
#   P/lib/tilec/clang/include        clang's builtin headers, for the translator's parser
#   P/lib/cmake/tilec/               tilecConfig.cmake, its version file, the exported targets
#                                    and TilecKernels.cmake (tilec_add_kernels)
# find_package(tilec) then gives tilec::runtime, tilec::headers, tilec::device, tilec::tilec.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TILEC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilec)

install(TARGETS tilec_headers tilec_device tilec_runtime EXPORT tilecTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${TILEC_RUNTIME_INCLUDE_DIR}/tilec ${TILEC_TEMPLATES_DIR}/tilec
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET tilec AND NOT TILEC_TRANSLATOR)
  install(TARGETS tilec EXPORT tilecTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(TARGETS tilec-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # The translator looks for <bin>/../lib/tilec/clang (tool/Resources.cpp), whatever LIBDIR is.
  install(DIRECTORY ${TILEC_CLANG_RESOURCE_DIR}/include DESTINATION lib/tilec/clang)
endif()

install(EXPORT tilecTargets NAMESPACE tilec:: DESTINATION ${TILEC_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tilecConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tilecConfig.cmake
                              INSTALL_DESTINATION ${TILEC_INSTALL_CMAKEDIR})
# 0.x releases change what kernels may say: a request for 0.2 accepts 0.2.* only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tilecConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tilecConfig.cmake ${PROJECT_BINARY_DIR}/tilecConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/TilecKernels.cmake ${PROJECT_SOURCE_DIR}/cmake/TilecTorch.cmake
        DESTINATION ${TILEC_INSTALL_CMAKEDIR})
