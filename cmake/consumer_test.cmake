# ctest install-consumer: install into BUILD/consumer-test/prefix, then build
# examples/driver against the installed package three ways (a CMake C
# project on libweightpack.so, a CMake C and C++ project on the static
# archives, and a plain cc line from pkg-config), run each on the example
# model and compare its NEFF with opt's, byte for byte.
set(root ${BUILD}/consumer-test)
file(REMOVE_RECURSE ${root})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${root}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
foreach(f bin/weightpack-opt bin/neff lib/libweightpack.so share/weightpack/weightpack.irdl.mlir
          lib/pkgconfig/weightpack.pc include/weightpack/weightpack.h)
  if(NOT EXISTS ${root}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
if(EXISTS ${root}/prefix/bin/opt)
  message(FATAL_ERROR "installed bin/opt would shadow LLVM's opt")
endif()
set(san "")
if(SANITIZE) # the libraries were built with the sanitizers: so is the driver
  set(san -fsanitize=address,undefined)
endif()
execute_process(COMMAND ${BUILD}/bin/opt ${SRC}/examples/mlp --inline-weights --bir-lower
                        --neff-pack -o ${root}/opt.neff
                RESULT_VARIABLE rc ERROR_QUIET)
if(rc)
  message(FATAL_ERROR "opt failed")
endif()

function(run_driver how exe)
  execute_process(COMMAND ${exe} ${SRC}/examples/mlp ${root}/art-${how} ${root}/${how}.neff
                  RESULT_VARIABLE rc ERROR_QUIET)
  if(rc)
    message(FATAL_ERROR "the ${how} driver failed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${root}/${how}.neff ${root}/opt.neff
                  RESULT_VARIABLE same)
  if(same)
    message(FATAL_ERROR "the ${how} driver's NEFF differs from opt's")
  endif()
endfunction()

foreach(how c static)
  set(args "")
  if(how STREQUAL "static")
    list(APPEND args -DWP_DRIVER_STATIC=ON)
  endif()
  if(SANITIZE)
    list(APPEND args "-DCMAKE_C_FLAGS=${san}" "-DCMAKE_CXX_FLAGS=${san}"
         "-DCMAKE_EXE_LINKER_FLAGS=${san}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} "-DCMAKE_PREFIX_PATH=${root}/prefix;${LLVM_ROOT}"
                          -S ${SRC}/examples/driver -B ${root}/${how} -DCMAKE_BUILD_TYPE=Release
                          ${args}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(rc)
    message(FATAL_ERROR "configuring the ${how} driver failed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${root}/${how} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(rc)
    message(FATAL_ERROR "building the ${how} driver failed")
  endif()
  run_driver(${how} ${root}/${how}/driver)
endforeach()

# pkg-config and a plain cc line
set(ENV{PKG_CONFIG_PATH} ${root}/prefix/lib/pkgconfig)
execute_process(COMMAND pkg-config --cflags --libs weightpack OUTPUT_VARIABLE pc
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(rc)
  message(FATAL_ERROR "pkg-config --cflags --libs weightpack failed")
endif()
separate_arguments(pc UNIX_COMMAND "${pc}")
execute_process(COMMAND cc -std=c17 ${san} -o ${root}/pc-driver ${SRC}/examples/driver/driver.c ${pc}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "cc with pkg-config's flags failed")
endif()
run_driver(pkgconfig ${root}/pc-driver)
