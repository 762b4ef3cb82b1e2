# onchip CMake package: find_package(onchip) gives the interface target onchip::onchip
# (include directories only: the kit is header-only).
get_filename_component(_onchip_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET onchip::onchip)
  add_library(onchip::onchip INTERFACE IMPORTED)
  set_target_properties(onchip::onchip PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_onchip_prefix}/include")
endif()
set(onchip_INCLUDE_DIRS "${_onchip_prefix}/include")
unset(_onchip_prefix)
