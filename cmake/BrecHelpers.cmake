# brec_enable_warnings(target): the project's warning set.
function(brec_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
  if(BREC_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(BREC_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(BREC_EXPENSIVE_CHECKS)
    target_compile_definitions(${target} PRIVATE BREC_EXPENSIVE_CHECKS=1)
  endif()
endfunction()

# brec_add_module(name DEPS dep... [LIBS lib...])
# One static library per module: sources are src/<name>/*.cpp, public headers include/brec/<name>/.
# DEPS are other brec modules (dependencies point one way, as src/CMakeLists.txt declares); LIBS are imported targets.
function(brec_add_module name)
  cmake_parse_arguments(ARG "" "" "DEPS;LIBS" ${ARGN})
  # Sources may sit in sub-folders (e.g. src/nn/models/, one file per model).
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/src/${name}/*.cpp")
  if(NOT _sources)
    # A module that is still header-only.
    add_library(brec_${name} INTERFACE)
    target_include_directories(brec_${name} INTERFACE "${PROJECT_SOURCE_DIR}/include")
    foreach(dep IN LISTS ARG_DEPS)
      target_link_libraries(brec_${name} INTERFACE brec_${dep})
    endforeach()
    target_link_libraries(brec_${name} INTERFACE ${ARG_LIBS})
    return()
  endif()
  add_library(brec_${name} STATIC ${_sources})
  target_include_directories(brec_${name}
    PUBLIC "${PROJECT_SOURCE_DIR}/include"
    PRIVATE "${PROJECT_SOURCE_DIR}/src")
  foreach(dep IN LISTS ARG_DEPS)
    target_link_libraries(brec_${name} PUBLIC brec_${dep})
  endforeach()
  target_link_libraries(brec_${name} PUBLIC ${ARG_LIBS})
  brec_enable_warnings(brec_${name})
endfunction()

# brec_add_test(module [DEPS ...]): one GoogleTest program per module from tests/<module>/*_test.cpp.
function(brec_add_test module)
  cmake_parse_arguments(ARG "" "" "DEPS;LABELS" ${ARGN})
  file(GLOB _tests CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/${module}/*_test.cpp")
  if(NOT _tests)
    return()
  endif()
  # crash_report.cpp: a test program killed by a signal writes a backtrace first; the exported
  # symbols (-rdynamic) give its own frames their names.
  add_executable(test_${module} ${_tests} "${PROJECT_SOURCE_DIR}/tests/common/crash_report.cpp")
  set_target_properties(test_${module} PROPERTIES ENABLE_EXPORTS ON)
  target_include_directories(test_${module} PRIVATE "${PROJECT_SOURCE_DIR}/tests" "${PROJECT_SOURCE_DIR}/src")
  target_link_libraries(test_${module} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(test_${module} PRIVATE
    BREC_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    BREC_BINARY="$<TARGET_FILE:brec>")
  brec_enable_warnings(test_${module})
  set(_labels unit)
  if(ARG_LABELS)
    set(_labels ${ARG_LABELS})
  endif()
  gtest_discover_tests(test_${module}
    PROPERTIES LABELS "${_labels}"
    DISCOVERY_TIMEOUT 120)
endfunction()

# brec_find_python_with(out modules [candidates...]): the first interpreter among `candidates` that
# exists and imports `modules` (e.g. "torch, numpy"), or "" in `out`.
function(brec_find_python_with out modules)
  set(_found "")
  foreach(_py ${ARGN})
    if(NOT _found AND EXISTS "${_py}")
      execute_process(COMMAND "${_py}" -c "import ${modules}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
      if(_rc EQUAL 0)
        set(_found "${_py}")
      endif()
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

# brec_precompile_torch(target...): the targets' sources get LibTorch's headers precompiled.
# Parsing <torch/torch.h> takes about 10 s of the 12-20 s a source that uses LibTorch compiles in;
# a precompiled header is loaded in well under one. The header is compiled once for each kind of
# code, position-independent for the static libraries and PIE for the executables (gcc refuses a
# header compiled with the other setting), by a host target of one empty source with the same flags,
# and reused by every target of that kind.
function(brec_precompile_torch)
  if(NOT BREC_PRECOMPILE_HEADERS OR NOT BREC_HAVE_TORCH OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  foreach(target IN LISTS ARGN)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      set(kind exe)
    else()
      set(kind lib)
    endif()
    set(host brec_torch_pch_${kind})
    if(NOT TARGET ${host})
      set(empty "${CMAKE_BINARY_DIR}/generated/torch_pch_${kind}.cpp")
      file(WRITE "${empty}" "// The host of ${host}'s precompiled header; nothing else.\n")
      add_library(${host} OBJECT "${empty}")
      target_link_libraries(${host} PRIVATE ${TORCH_LIBRARIES})
      if(kind STREQUAL "exe")
        # As CMake compiles an executable's sources under POSITION_INDEPENDENT_CODE.
        set_target_properties(${host} PROPERTIES POSITION_INDEPENDENT_CODE OFF)
        target_compile_options(${host} PRIVATE -fPIE)
      endif()
      brec_enable_warnings(${host})
      target_precompile_headers(${host} PRIVATE <torch/torch.h>)
    endif()
    target_precompile_headers(${target} REUSE_FROM ${host})
  endforeach()
endfunction()
