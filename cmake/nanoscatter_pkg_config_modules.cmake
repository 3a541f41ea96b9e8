# The libraries nanoscatter links that are known through pkg-config only:
# for each prefix P, pkg_check_modules(P IMPORTED_TARGET <NANOSCATTER_PKG_CONFIG_P>)
# makes the target PkgConfig::P. Read by CMakeLists.txt for the build and,
# installed, by nanoscatterConfig.cmake, so that programs linking the static
# library find the same targets.
set(NANOSCATTER_PKG_CONFIG_PREFIXES FFTW3 XRL TOMLPP MUPARSER CAIRO)
set(NANOSCATTER_PKG_CONFIG_FFTW3 fftw3 fftw3f)
set(NANOSCATTER_PKG_CONFIG_XRL libxrl)
set(NANOSCATTER_PKG_CONFIG_TOMLPP tomlplusplus)
set(NANOSCATTER_PKG_CONFIG_MUPARSER muparser)  # tie expressions in fits
set(NANOSCATTER_PKG_CONFIG_CAIRO cairo)        # figures with axes and text
