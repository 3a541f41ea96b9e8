# `cmake --install build --prefix P` (README "Install"): the CLI in P/bin, the
# static library and its headers, and the CMake package
#   P/lib/cmake/nanoscatter/nanoscatterConfig.cmake
# whose target nanoscatter::nanoscatter carries the library's dependencies
# (nanoscatterConfig.cmake.in finds them). The Python package is installed by
# python/CMakeLists.txt. Components: `cli`, `development` and `python` (the
# last is all that pyproject.toml's wheel takes).
include(CMakePackageConfigHelpers)

set(NANOSCATTER_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/nanoscatter CACHE STRING
    "Folder, under the install prefix, of nanoscatterConfig.cmake")

install(TARGETS nanoscatter_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)

install(TARGETS nanoscatter EXPORT nanoscatterTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/nanoscatter
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
install(EXPORT nanoscatterTargets NAMESPACE nanoscatter::
  DESTINATION ${NANOSCATTER_INSTALL_CMAKEDIR} COMPONENT development)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/nanoscatterConfig.cmake.in
  ${PROJECT_BINARY_DIR}/nanoscatterConfig.cmake
  INSTALL_DESTINATION ${NANOSCATTER_INSTALL_CMAKEDIR})
# 0.x releases change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/nanoscatterConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
    ${PROJECT_BINARY_DIR}/nanoscatterConfig.cmake
    ${PROJECT_BINARY_DIR}/nanoscatterConfigVersion.cmake
    ${CMAKE_CURRENT_LIST_DIR}/FindCBF.cmake
    ${CMAKE_CURRENT_LIST_DIR}/nanoscatter_pkg_config_modules.cmake
  DESTINATION ${NANOSCATTER_INSTALL_CMAKEDIR} COMPONENT development)
