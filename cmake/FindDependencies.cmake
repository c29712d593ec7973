# Locates every third-party dependency once, so that modules only name imported targets.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(nlohmann_json 3.9 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.71 REQUIRED)  # header-only parts: Graph, Math

# nauty ships a pkg-config file (nauty.pc) in Debian's libnauty2-dev.
pkg_check_modules(NAUTY REQUIRED IMPORTED_TARGET nauty)

set(BREC_HAVE_TORCH OFF)
if(BREC_WITH_TORCH)
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(BREC_HAVE_TORCH ON)
    message(STATUS "brec: building with LibTorch ${Torch_VERSION}")
  else()
    message(WARNING "brec: LibTorch not found; brec eval is disabled (install libtorch-dev)")
  endif()
endif()
