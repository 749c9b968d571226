# `cmake --install`: the oprig binary, the public C headers (the package ABI
# and the DSP kernel API), the bundled op packages with their specs, plans,
# model suites and golden vectors, the user scripts, and a CMake package
# (find_package(oprig): oprig::abi, oprig_add_package()) plus a pkg-config
# file, so that a vendor builds an op package against an installed oprig, out
# of its source tree.
# Installed layout (the oprig binary finds its data relative to itself):
#   bin/oprig
#   include/oprig/oprig_package.h, include/oprig/oprig_dsp.h
#   lib/oprig/liboprig_opsuite*.so, liboprig_builtins*.so, libcom_example_fibonacci.so
#   lib/oprig/vulkan_layer/ (VK_LAYER_OPRIG_guard_bands: library and manifest)
#   <libdir>/cmake/oprig/, <libdir>/pkgconfig/oprig.pc
#   share/oprig/opsuite/ (specs, plans, suites), share/oprig/golden/, share/oprig/scripts/
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS oprig RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/runtime/include/oprig/oprig_package.h
              ${PROJECT_SOURCE_DIR}/runtime/include/oprig/oprig_dsp.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/oprig)

set(opsuite_libraries oprig_opsuite com_example_fibonacci oprig_builtins)
foreach(backend IN ITEMS cpu opencl vulkan dsp)
  if(TARGET oprig_opsuite_${backend})
    list(APPEND opsuite_libraries oprig_opsuite_${backend})
  endif()
  if(TARGET oprig_builtins_${backend})
    list(APPEND opsuite_libraries oprig_builtins_${backend})
  endif()
endforeach()
install(TARGETS ${opsuite_libraries} LIBRARY DESTINATION lib/oprig)
# The vulkan backend's guard-band layer, library and manifest side by side
# (backends/vulkan/README.md); the backend looks in ../lib/oprig/vulkan_layer.
if(TARGET oprig_vk_guard_layer)
  install(TARGETS oprig_vk_guard_layer LIBRARY DESTINATION lib/oprig/vulkan_layer)
  install(FILES ${OPRIG_GUARD_LAYER_BUILD_DIR}/VK_LAYER_OPRIG_guard_bands.json DESTINATION lib/oprig/vulkan_layer)
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/opsuite/ DESTINATION share/oprig/opsuite
        FILES_MATCHING PATTERN "*.xml" PATTERN "*.json" PATTERN "*.npy" PATTERN "*.py" PATTERN "README.md")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/golden/ DESTINATION share/oprig/golden)
install(FILES ${PROJECT_SOURCE_DIR}/scripts/golden/make_golden.py ${PROJECT_SOURCE_DIR}/scripts/golden/crosscheck.py
              ${PROJECT_SOURCE_DIR}/scripts/onnx/import_onnx_tests.py
        DESTINATION share/oprig/scripts)

# A dsp kernel needs only oprig_dsp.h: the simulator is the backend's, handed
# over at run time (oprig_backend_context::dsp), so no library is installed.
set(abi_targets oprig_abi)
install(TARGETS ${abi_targets} EXPORT oprigTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/oprig)
install(EXPORT oprigTargets NAMESPACE oprig:: DESTINATION ${cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/scripts/cmake/package/oprigConfig.cmake.in
  ${PROJECT_BINARY_DIR}/oprigConfig.cmake INSTALL_DESTINATION ${cmake_dir} PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/oprigConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/oprigConfig.cmake ${PROJECT_BINARY_DIR}/oprigConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/scripts/cmake/package/OprigAddPackage.cmake
              ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_file.cmake
        DESTINATION ${cmake_dir})
configure_file(${PROJECT_SOURCE_DIR}/scripts/cmake/package/oprig.pc.in ${PROJECT_BINARY_DIR}/oprig.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/oprig.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
