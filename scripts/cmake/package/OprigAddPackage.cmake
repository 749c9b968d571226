# oprig_add_package(<name>
#     REGISTRATION <sources...>
#     [CPU <sources...>] [OPENCL <sources...>] [VULKAN <sources...>] [DSP <sources...>]
#     [OPENCL_KERNELS <file.cl...>] [VULKAN_SHADERS <file.comp...>])
#
# Builds an oprig op package the way oprig loads it: lib<name>.so (the
# registration part, exporting oprig_package_query) and one
# lib<name>_<backend>.so per backend given (each exporting
# oprig_implementation_query), all linking only oprig::abi (plus the backend's
# API: OpenCL or Vulkan; a dsp kernel needs nothing but <oprig/oprig_dsp.h>,
# the simulator being handed over at run time). OpenCL C sources are
# embedded as `<stem>_opencl_source` and GLSL compute shaders are compiled with
# glslc (rebuilt when a file they #include changes) and embedded as
# `<stem>_spirv`, both in generated headers `<stem>_cl.h` / `<stem>_spv.h` on
# the backend library's include path. The embedded arrays are bytes: copy
# SPIR-V into uint32_t words for VkShaderModuleCreateInfo::pCode.
function(oprig_add_package name)
  cmake_parse_arguments(ARG "" "" "REGISTRATION;CPU;OPENCL;VULKAN;DSP;OPENCL_KERNELS;VULKAN_SHADERS" ${ARGN})
  if(NOT ARG_REGISTRATION)
    message(FATAL_ERROR "oprig_add_package(${name}): REGISTRATION sources are required")
  endif()
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${name}_generated)
  file(MAKE_DIRECTORY ${gen})
  add_library(${name} SHARED ${ARG_REGISTRATION})
  target_link_libraries(${name} PRIVATE oprig::abi)
  set_target_properties(${name} PROPERTIES CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden)
  foreach(backend IN ITEMS cpu opencl vulkan dsp)
    string(TOUPPER ${backend} upper)
    if(NOT ARG_${upper})
      continue()
    endif()
    set(target ${name}_${backend})
    add_library(${target} SHARED ${ARG_${upper}})
    target_link_libraries(${target} PRIVATE oprig::abi)
    target_include_directories(${target} PRIVATE ${gen})
    set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden C_VISIBILITY_PRESET hidden)
    add_dependencies(${name} ${target})
  endforeach()
  if(TARGET ${name}_opencl)
    find_package(OpenCL REQUIRED)
    target_link_libraries(${name}_opencl PRIVATE OpenCL::OpenCL)
    target_compile_definitions(${name}_opencl PRIVATE CL_TARGET_OPENCL_VERSION=300)
    foreach(kernel IN LISTS ARG_OPENCL_KERNELS)
      get_filename_component(stem ${kernel} NAME_WE)
      get_filename_component(kernel_path ${kernel} ABSOLUTE)
      add_custom_command(OUTPUT ${gen}/${stem}_cl.h
        COMMAND ${CMAKE_COMMAND} -DINPUT=${kernel_path} -DOUTPUT=${gen}/${stem}_cl.h -DSYMBOL=${stem}_opencl_source
                -P ${OPRIG_EMBED_SCRIPT}
        DEPENDS ${kernel_path} VERBATIM)
      target_sources(${name}_opencl PRIVATE ${gen}/${stem}_cl.h)
    endforeach()
  endif()
  if(TARGET ${name}_vulkan)
    find_package(Vulkan REQUIRED)
    find_program(OPRIG_GLSLC glslc REQUIRED)
    target_link_libraries(${name}_vulkan PRIVATE Vulkan::Vulkan)
    foreach(shader IN LISTS ARG_VULKAN_SHADERS)
      get_filename_component(stem ${shader} NAME_WE)
      get_filename_component(shader_path ${shader} ABSOLUTE)
      # The files a shader #includes are dependencies too (glslc writes them
      # into a depfile), so editing one rebuilds the .spv.
      set(depfile_args)
      set(glslc_depfile)
      if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.21)
        set(depfile_args DEPFILE ${gen}/${stem}.spv.d)
        set(glslc_depfile -MD -MF ${gen}/${stem}.spv.d)
      endif()
      add_custom_command(OUTPUT ${gen}/${stem}.spv
        COMMAND ${OPRIG_GLSLC} --target-env=vulkan1.1 -O ${glslc_depfile} -o ${gen}/${stem}.spv ${shader_path}
        DEPENDS ${shader_path} ${depfile_args} VERBATIM)
      add_custom_command(OUTPUT ${gen}/${stem}_spv.h
        COMMAND ${CMAKE_COMMAND} -DINPUT=${gen}/${stem}.spv -DOUTPUT=${gen}/${stem}_spv.h -DSYMBOL=${stem}_spirv
                -P ${OPRIG_EMBED_SCRIPT}
        DEPENDS ${gen}/${stem}.spv VERBATIM)
      target_sources(${name}_vulkan PRIVATE ${gen}/${stem}_spv.h)
    endforeach()
  endif()
  if(TARGET ${name}_dsp)
    # HVX code passes 128-byte vectors by value; GCC's note on their ABI is noise.
    target_compile_options(${name}_dsp PRIVATE $<$<OR:$<COMPILE_LANG_AND_ID:CXX,GNU>,$<COMPILE_LANG_AND_ID:C,GNU>>:-Wno-psabi>)
  endif()
endfunction()
