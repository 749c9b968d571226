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
# PREPEND files...: text files placed before the input, each introduced by a
# `#line 1 "<name>"` directive (and the input by one of its own), so a
# compiler's messages name the file and line they came from. For OpenCL C
# sources, which have no #include at run time: the kernels' shared
# building blocks (opsuite/common/opencl/*.cl) travel with every program.
function(oprig_embed_file input out_header symbol)
  cmake_parse_arguments(ARG "" "" "PREPEND" ${ARGN})
  string(REPLACE ";" "|" prepend "${ARG_PREPEND}")
  add_custom_command(
    OUTPUT ${out_header}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out_header} -DSYMBOL=${symbol} "-DPREPEND=${prepend}"
            -P ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_file.cmake
    DEPENDS ${input} ${ARG_PREPEND} ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_file.cmake
    COMMENT "Embedding ${input}"
    VERBATIM)
endfunction()

# The GLSL every shader may #include (opsuite/common/glsl: fp16 in 32-bit
# words, work-group reductions).
set(OPRIG_GLSL_INCLUDE_DIR ${PROJECT_SOURCE_DIR}/opsuite/common/glsl)

# Compiles a GLSL compute shader to SPIR-V with glslc at build time; the
# files it #includes are found in OPRIG_GLSL_INCLUDE_DIR and recorded in a
# depfile, so editing one recompiles every shader that uses it.
function(oprig_compile_shader input output)
  set(depfile_args "")
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    set(depfile_args DEPFILE ${output}.d)
  endif()
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${OPRIG_GLSLC} --target-env=vulkan1.1 -O -I ${OPRIG_GLSL_INCLUDE_DIR} -MD -MF ${output}.d
            -o ${output} ${input}
    DEPENDS ${input}
    ${depfile_args}
    COMMENT "glslc ${input}"
    VERBATIM)
endfunction()
