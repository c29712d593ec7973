# Refuse in-source builds: they litter the tree and cannot be cleaned reliably.
get_filename_component(_brec_src "${CMAKE_SOURCE_DIR}" REALPATH)
get_filename_component(_brec_bin "${CMAKE_BINARY_DIR}" REALPATH)
if(_brec_src STREQUAL _brec_bin)
  message(FATAL_ERROR "In-source builds are not allowed; use: cmake -S . -B build")
endif()
