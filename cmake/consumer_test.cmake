# ctest install-consumer: everything under BUILD/consumer-test.
set(root ${BUILD}/consumer-test)
file(REMOVE_RECURSE ${root})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${root}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
set(flags "")
if(SANITIZE) # the archives were built with the sanitizers: so is the driver
  set(flags -DCMAKE_C_FLAGS=-fsanitize=address,undefined
            -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/test/consumer -B ${root}/build
                        -DCMAKE_PREFIX_PATH=${root}/prefix;${LLVM_ROOT} -DCMAKE_BUILD_TYPE=Release
                        ${flags}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${root}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer failed")
endif()
execute_process(COMMAND ${root}/build/driver ${SRC}/examples/mlp ${root}/art ${root}/mlp.neff
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer failed")
endif()
execute_process(COMMAND ${BUILD}/bin/neff verify ${root}/mlp.neff RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the consumer's NEFF does not verify")
endif()
execute_process(COMMAND ${BUILD}/bin/opt ${SRC}/examples/mlp --inline-weights --bir-lower
                        --neff-pack -o ${root}/opt.neff
                RESULT_VARIABLE rc ERROR_QUIET)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${root}/mlp.neff ${root}/opt.neff
                RESULT_VARIABLE same)
if(rc OR same)
  message(FATAL_ERROR "the consumer's NEFF differs from opt's")
endif()
