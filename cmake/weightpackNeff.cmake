# weightpack_add_neff: a NEFF as a build step, rebuilt when (and only when)
# a file the run read changes: opt writes a depfile (--depfile) listing the
# module, metadata.json and every weight it read, and the custom command
# hands it to the generator (DEPFILE: Ninja, and Makefiles from CMake
# 3.20). Included by weightpackConfig.cmake; docs/build-systems.md.
#
#   weightpack_add_neff(NAME
#     MODEL_DIR dir            # relative: to the current source directory
#     OUTPUT file              # relative: to the current binary directory
#     [PIPELINE pass ...]      # opt's pass flags without "--", each with its
#                              # options: bir-lower=small-weight-threshold=0;
#                              # default: inline-weights bir-lower neff-pack
#     [OPTIONS opt-flag ...])  # more opt flags: --artifact-dir=..., --digest-cache=...
#
# NAME becomes a target (built by ALL) whose output is the NEFF.

# Functions keep the policies in force where they are defined: the
# depfile's paths are read as given (absolute), whatever the caller's
# minimum version.
cmake_policy(PUSH)
cmake_policy(SET CMP0116 NEW)

function(weightpack_add_neff name)
  cmake_parse_arguments(PARSE_ARGV 1 WP "" "MODEL_DIR;OUTPUT" "PIPELINE;OPTIONS")
  if(WP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "weightpack_add_neff(${name}): unknown arguments ${WP_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT WP_MODEL_DIR OR NOT WP_OUTPUT)
    message(FATAL_ERROR "weightpack_add_neff(${name}): MODEL_DIR and OUTPUT are required")
  endif()
  if(NOT WP_PIPELINE)
    set(WP_PIPELINE inline-weights bir-lower neff-pack)
  endif()
  get_filename_component(model "${WP_MODEL_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(out "${WP_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(out_dir "${out}" DIRECTORY)
  get_filename_component(out_name "${out}" NAME)
  set(depfile "${out_dir}/${out_name}.d")
  set(passes "")
  foreach(p IN LISTS WP_PIPELINE)
    list(APPEND passes "--${p}")
  endforeach()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
    COMMAND weightpack::opt "${model}" ${passes} -o "${out}" "--depfile=${depfile}" ${WP_OPTIONS}
    DEPFILE "${depfile}"
    # the depfile names the rest; these are known before the first build
    DEPENDS "${WEIGHTPACK_OPT}" "${model}/metadata.json"
    COMMENT "weightpack: NEFF ${out_name} from ${WP_MODEL_DIR}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${out}")
  set_target_properties(${name} PROPERTIES WEIGHTPACK_NEFF "${out}")
endfunction()

cmake_policy(POP)
