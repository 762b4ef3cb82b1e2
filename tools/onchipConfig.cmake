# onchip CMake package: find_package(onchip) gives INTERFACE targets (the kit is header-only):
#   onchip::onchip                                    every module
#   onchip::ssam  onchip::perks  onchip::cbi  onchip::ksum   one module each
# Each adds include/ to the include path; ssam, perks, ksum and onchip::onchip ask for C++17 in CUDA
# sources (cuda_std_17), cbi (C99 and CUDA) for nothing.  The source tree's CMakeLists.txt includes
# this file too (add_subdirectory, FetchContent): there the targets are ordinary INTERFACE
# libraries (onchip, onchip_ssam, ...) with the same onchip:: names as aliases.
if(DEFINED ONCHIP__SOURCE_INCLUDE)
  set(_onchip_include "${ONCHIP__SOURCE_INCLUDE}")
else()
  get_filename_component(_onchip_include "${CMAKE_CURRENT_LIST_DIR}/../../../include" ABSOLUTE)
endif()

if(NOT TARGET onchip::onchip)
foreach(_onchip_m onchip ssam perks cbi ksum)
  if(DEFINED ONCHIP__SOURCE_INCLUDE)
    set(_onchip_t onchip_${_onchip_m})
    if(_onchip_m STREQUAL "onchip")
      set(_onchip_t onchip)
    endif()
    add_library(${_onchip_t} INTERFACE)
    add_library(onchip::${_onchip_m} ALIAS ${_onchip_t})
    target_include_directories(${_onchip_t} INTERFACE "${_onchip_include}")
  else()
    set(_onchip_t onchip::${_onchip_m})
    add_library(${_onchip_t} INTERFACE IMPORTED)
    set_target_properties(${_onchip_t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_onchip_include}")
  endif()
  if(NOT _onchip_m STREQUAL "cbi")
    set_property(TARGET ${_onchip_t} APPEND PROPERTY INTERFACE_COMPILE_FEATURES cuda_std_17)
  endif()
  if(_onchip_m STREQUAL "onchip")
    set(_onchip_all ${_onchip_t})
  else()
    set_property(TARGET ${_onchip_all} APPEND PROPERTY INTERFACE_LINK_LIBRARIES onchip::${_onchip_m})
  endif()
endforeach()
endif()

set(onchip_INCLUDE_DIRS "${_onchip_include}")
unset(_onchip_include)
unset(_onchip_m)
unset(_onchip_t)
unset(_onchip_all)
