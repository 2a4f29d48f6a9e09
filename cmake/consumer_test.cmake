# ctest install-consumer: install into BUILD/consumer-test/prefix, then build
# the example drivers against the installed package and run each on the
# example model; every NEFF must equal opt's, byte for byte.
#   examples/driver (C), a C project on weightpack::shared and on
#     weightpack::static, and a plain cc line from pkg-config. Each runs
#     its five passes on a run object, then the same five as a textual
#     pipeline.
#   examples/driver-cpp (C++) on weightpack::weightpack: its default
#     pipeline (inline-weights, bir-lower, neff-pack), and the five passes.
set(root ${BUILD}/consumer-test)
set(model ${SRC}/examples/mlp)

function(same_as_opt how neff)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${neff} ${root}/opt.neff
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "the ${how} driver's NEFF differs from opt's")
  endif()
endfunction()

function(run how)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "the ${how} driver failed (${rc}): ${err}")
  endif()
endfunction()

file(REMOVE_RECURSE ${root})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${root}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
foreach(f bin/weightpack-opt bin/neff lib/libweightpack.so lib/libweightpack-mlir-capi.so
          share/weightpack/weightpack.irdl.mlir lib/pkgconfig/weightpack.pc
          include/weightpack/weightpack.h)
  if(NOT EXISTS ${root}/prefix/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
if(EXISTS ${root}/prefix/bin/opt)
  message(FATAL_ERROR "installed bin/opt would shadow LLVM's opt")
endif()
set(san "")
if(SANITIZE) # the libraries were built with the sanitizers: so are the drivers
  set(san -fsanitize=address,undefined)
endif()
execute_process(COMMAND ${BUILD}/bin/opt ${model} --inline-weights --bir-lower
                        --neff-pack -o ${root}/opt.neff
                RESULT_VARIABLE rc ERROR_QUIET)
if(rc)
  message(FATAL_ERROR "opt failed")
endif()

# The C driver both ways: its run object, and the five passes as text.
function(run_c_driver how exe)
  run(${how} ${exe} ${model} ${root}/art-${how} ${root}/${how}.neff)
  same_as_opt(${how} ${root}/${how}.neff)
  run(${how}-text ${exe} ${model} "builtin.module(inline-weights{model-dir=${model}},\
bir-lower,copy-const-artifacts{artifact-dir=${root}/art-${how}-text},dedup-consts,\
neff-pack{output=${root}/${how}-text.neff})")
  same_as_opt(${how}-text ${root}/${how}-text.neff)
endfunction()

# Configures and builds example DIR into ${root}/${how}, with ARGN.
function(build_example how dir)
  set(args ${ARGN})
  if(SANITIZE)
    list(APPEND args "-DCMAKE_C_FLAGS=${san}" "-DCMAKE_CXX_FLAGS=${san}"
         "-DCMAKE_EXE_LINKER_FLAGS=${san}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} "-DCMAKE_PREFIX_PATH=${root}/prefix;${LLVM_ROOT}"
                          -S ${SRC}/examples/${dir} -B ${root}/${how} -DCMAKE_BUILD_TYPE=Release
                          ${args}
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(rc)
    message(FATAL_ERROR "configuring the ${how} driver failed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${root}/${how} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "building the ${how} driver failed: ${out}")
  endif()
endfunction()

foreach(target shared static)
  build_example(c-${target} driver -DWP_DRIVER_TARGET=weightpack::${target})
  run_c_driver(c-${target} ${root}/c-${target}/driver)
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
run_c_driver(pkgconfig ${root}/pc-driver)

# The C++ driver: its default pipeline,
# builtin.module(inline-weights{model-dir=...},bir-lower,neff-pack{output=...}),
# then the five passes named.
build_example(cpp driver-cpp)
run(C++ ${root}/cpp/driver-cpp ${model} ${root}/cpp-3.neff)
same_as_opt(C++ ${root}/cpp-3.neff)
run(C++-five ${root}/cpp/driver-cpp ${model} ${root}/cpp-5.neff "builtin.module(\
inline-weights{model-dir=${model}},bir-lower,copy-const-artifacts{artifact-dir=${root}/art-cpp},\
dedup-consts,neff-pack{output=${root}/cpp-5.neff})")
same_as_opt(C++-five ${root}/cpp-5.neff)
