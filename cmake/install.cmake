# `cmake --install build --prefix P`: libvmafpp.a and libvmafpp.so, the
# public headers include/vmafpp/*.hpp, the CLI, a CMake package
# (find_package(vmafpp) -> vmafpp::vmafpp, the shared library, or
# vmafpp::vmafpp_static) and vmafpp.pc. Models are embedded in the library.
#
# What a consumer's machine needs: libvmafpp.so carries everything inside it
# (the static CUDA runtime too; Vulkan and FFmpeg are opened with dlopen), so
# vmafpp::vmafpp and `pkg-config --libs vmafpp` need nothing but the prefix:
# no CUDA toolkit, no Vulkan headers, no nlohmann_json. libvmafpp.a needs what
# it links: with the CUDA backend (VMAFPP_WITH_CUDA) the CUDA toolkit's static
# runtime (CUDA::cudart_static; `pkg-config --static` lists it by its path on
# the build machine). The two libraries are therefore two export sets:
# vmafppTargets.cmake (shared) is always loaded, vmafppStaticTargets.cmake
# only where its dependencies are found (vmafppConfig.cmake.in). The
# install_consumers test configures a shared-only consumer with CUDA hidden.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VMAFPP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vmafpp)
set_target_properties(vmafpp PROPERTIES EXPORT_NAME vmafpp_static)

if(VMAFPP_BUILD_SHARED)
  # Every object of the static library, so the shared one has the whole API.
  add_library(vmafpp_shared SHARED ${CMAKE_CURRENT_LIST_DIR}/shared_library.cpp)
  target_link_libraries(vmafpp_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,vmafpp>")
  target_link_libraries(vmafpp_shared PUBLIC Threads::Threads)
  target_include_directories(vmafpp_shared PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
  target_compile_features(vmafpp_shared PUBLIC cxx_std_20)
  set_target_properties(vmafpp_shared PROPERTIES
    OUTPUT_NAME vmafpp EXPORT_NAME vmafpp
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  # The objects export only VMAFPP_API (-fvisibility=hidden, src/CMakeLists.txt);
  # the version script also keeps out the standard-library template instances
  # those functions use (weak, default visibility), so the ABI is vmafpp::'s.
  set(VMAFPP_SHARED_MAP ${CMAKE_CURRENT_LIST_DIR}/libvmafpp.map)
  target_link_options(vmafpp_shared PRIVATE -Wl,--version-script=${VMAFPP_SHARED_MAP})
  set_target_properties(vmafpp_shared PROPERTIES LINK_DEPENDS ${VMAFPP_SHARED_MAP})
  install(TARGETS vmafpp_shared EXPORT vmafppTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT vmafppTargets NAMESPACE vmafpp:: DESTINATION ${VMAFPP_CMAKE_DIR})
endif()
target_compile_features(vmafpp PUBLIC cxx_std_20)

install(TARGETS vmafpp EXPORT vmafppStaticTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT vmafppStaticTargets NAMESPACE vmafpp:: DESTINATION ${VMAFPP_CMAKE_DIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/vmafpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")
install(TARGETS vmafpp_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/vmafppConfig.cmake.in
  ${PROJECT_BINARY_DIR}/vmafppConfig.cmake INSTALL_DESTINATION ${VMAFPP_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vmafppConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vmafppConfig.cmake ${PROJECT_BINARY_DIR}/vmafppConfigVersion.cmake
  DESTINATION ${VMAFPP_CMAKE_DIR})

# pkg-config: -lvmafpp picks the shared library; `pkg-config --static`
# adds what libvmafpp.a needs.
# Relative to the .pc file, so `cmake --install --prefix P` (decided after
# configuring) still gives the right paths.
file(RELATIVE_PATH VMAFPP_PC_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
set(VMAFPP_PC_PREFIX "\${pcfiledir}/${VMAFPP_PC_PREFIX}")
# With the CUDA backend libvmafpp.a needs the static CUDA runtime.
set(VMAFPP_PC_PRIVATE_LIBS "")
if(VMAFPP_WITH_CUDA)
  set(VMAFPP_PC_PRIVATE_LIBS " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/vmafpp.pc.in ${PROJECT_BINARY_DIR}/vmafpp.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/vmafpp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
