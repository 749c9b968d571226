# Helpers shared by every folder: warnings, file embedding, op registration.

# Warnings as errors on oprig's own code (never on third-party headers, which
# come in as SYSTEM includes through their imported targets).
function(oprig_warnings target)
  # -Wrestrict is off: GCC 12 reports false positives inside libstdc++'s
  # std::string concatenation at -O3 (GCC bug 105329).
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror
    -Wno-missing-field-initializers -Wno-restrict)
endfunction()

# Embeds a file as a byte array: writes ${out_header} defining
# `inline constexpr unsigned char <symbol>[]` and `<symbol>_size`.
function(oprig_embed_file input out_header symbol)
  add_custom_command(
    OUTPUT ${out_header}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out_header} -DSYMBOL=${symbol}
            -P ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_file.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_file.cmake
    COMMENT "Embedding ${input}"
    VERBATIM)
endfunction()

# Compiles a GLSL compute shader to SPIR-V with glslc at build time.
function(oprig_compile_shader input output)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${OPRIG_GLSLC} --target-env=vulkan1.1 -O -o ${output} ${input}
    DEPENDS ${input}
    COMMENT "glslc ${input}"
    VERBATIM)
endfunction()
