# FindCBF: CBFlib (Debian libcbf-dev), which ships no CMake or pkg-config
# files. Defines the imported target CBF::CBF. Used by the build and, installed
# beside nanoscatterConfig.cmake, by projects that link the static library.
find_path(CBF_INCLUDE_DIR cbflib/cbf.h)
find_library(CBF_LIBRARY cbf)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CBF REQUIRED_VARS CBF_LIBRARY CBF_INCLUDE_DIR)
if(CBF_FOUND AND NOT TARGET CBF::CBF)
  add_library(CBF::CBF UNKNOWN IMPORTED)
  set_target_properties(CBF::CBF PROPERTIES
    IMPORTED_LOCATION ${CBF_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${CBF_INCLUDE_DIR})
endif()
mark_as_advanced(CBF_INCLUDE_DIR CBF_LIBRARY)
