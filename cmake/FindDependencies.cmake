# Locates every third-party dependency once, so that modules only name imported targets.
find_package(Threads REQUIRED)
find_package(PkgConfig)
find_package(nlohmann_json 3.9 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.71 REQUIRED)  # header-only parts: Graph, Math
find_package(OpenSSL 1.1 REQUIRED COMPONENTS Crypto)  # SHA-256 of a board's datasets

# nauty: through its pkg-config file (nauty.pc, in Debian's libnauty2-dev) when there is one, else
# by searching CMAKE_PREFIX_PATH and the system for nauty/nauty.h and libnauty (a nauty unpacked
# or built elsewhere, or a machine without pkg-config). Modules link brec::nauty.
if(PKG_CONFIG_FOUND)
  pkg_check_modules(NAUTY QUIET IMPORTED_TARGET nauty)
endif()
add_library(brec_nauty INTERFACE)
add_library(brec::nauty ALIAS brec_nauty)
if(NAUTY_FOUND)
  target_link_libraries(brec_nauty INTERFACE PkgConfig::NAUTY)
  # nauty.pc names only nauty's own folders; we include <nauty/...>, so add its include root too
  # (a system folder on Debian, not elsewhere).
  # Debian splits the headers: nauty/nauty.h lives under the multiarch folder.
  pkg_get_variable(NAUTY_INCLUDEDIR nauty includedir)
  pkg_get_variable(NAUTY_MULTIARCH_DIR nauty pkgmultiarchincludedir)
  foreach(_dir "${NAUTY_INCLUDEDIR}" "${NAUTY_MULTIARCH_DIR}/..")
    if(_dir AND IS_DIRECTORY "${_dir}")
      get_filename_component(_dir "${_dir}" ABSOLUTE)
      target_include_directories(brec_nauty SYSTEM INTERFACE "${_dir}")
    endif()
  endforeach()
else()
  find_path(NAUTY_HEADER_DIR nauty/nauty.h PATH_SUFFIXES include/${CMAKE_LIBRARY_ARCHITECTURE} include)
  find_path(NAUTY_AUX_HEADER_DIR nauty/nausparse.h)
  find_library(NAUTY_LIBRARY nauty)
  if(NOT NAUTY_HEADER_DIR OR NOT NAUTY_AUX_HEADER_DIR OR NOT NAUTY_LIBRARY)
    message(FATAL_ERROR "brec: nauty not found (install libnauty2-dev, or add its prefix to CMAKE_PREFIX_PATH)")
  endif()
  message(STATUS "brec: nauty ${NAUTY_LIBRARY} (without pkg-config)")
  # nauty's own sources include each other as "nauty.h", so its folder is an include path too.
  target_include_directories(brec_nauty INTERFACE
    "${NAUTY_HEADER_DIR}" "${NAUTY_HEADER_DIR}/nauty" "${NAUTY_AUX_HEADER_DIR}" "${NAUTY_AUX_HEADER_DIR}/nauty")
  target_link_libraries(brec_nauty INTERFACE "${NAUTY_LIBRARY}" Threads::Threads)
endif()

# libsvm (Debian's libsvm-dev): the SVM of `brec classify` (C-SVC on a precomputed kernel). Its
# header is libsvm/svm.h on Debian, svm.h elsewhere. Modules link brec::libsvm.
find_path(LIBSVM_INCLUDE_DIR svm.h PATH_SUFFIXES libsvm)
find_library(LIBSVM_LIBRARY svm)
if(NOT LIBSVM_INCLUDE_DIR OR NOT LIBSVM_LIBRARY)
  message(FATAL_ERROR "brec: libsvm not found (install libsvm-dev, or add its prefix to CMAKE_PREFIX_PATH)")
endif()
add_library(brec_libsvm INTERFACE)
add_library(brec::libsvm ALIAS brec_libsvm)
target_include_directories(brec_libsvm SYSTEM INTERFACE "${LIBSVM_INCLUDE_DIR}")
target_link_libraries(brec_libsvm INTERFACE "${LIBSVM_LIBRARY}")

# tcmalloc (Debian's libgoogle-perftools-dev), for brec-eval only: glibc's malloc serves every
# block above its mmap threshold (at most 32 MiB) with a fresh mmap and returns it with munmap,
# so the large activations of dense models (PPGN on the CFI pairs: 60 MB per tensor) page-fault
# anew on every batch; tcmalloc keeps freed pages for reuse. Optional: without it brec-eval runs
# on glibc's malloc, slower on big pairs, with the same results.
set(BREC_TCMALLOC "")
if(BREC_WITH_TCMALLOC AND PKG_CONFIG_FOUND)
  pkg_check_modules(TCMALLOC QUIET IMPORTED_TARGET libtcmalloc_minimal)
  if(TCMALLOC_FOUND)
    set(BREC_TCMALLOC PkgConfig::TCMALLOC)
    message(STATUS "brec: brec-eval allocates with tcmalloc ${TCMALLOC_VERSION}")
  endif()
endif()

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
