# ctest build-systems-cmake: weightpack_add_neff from the installed
# package, built with Ninja and with Makefiles: the NEFF equals opt's; a
# second build does nothing; touching a weight (or metadata.json) the
# model uses rebuilds it; touching a file it does not use rebuilds
# nothing. Everything under BUILD/build-systems-cmake.
set(root ${BUILD}/build-systems-cmake)
file(REMOVE_RECURSE ${root})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${root}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
file(COPY ${SRC}/examples/mlp/ DESTINATION ${root}/model)
file(COPY_FILE ${root}/model/weights/w1.npy ${root}/model/weights/unused.npy)
execute_process(COMMAND ${BUILD}/bin/opt ${root}/model --inline-weights
                        --bir-lower=small-weight-threshold=0 --neff-pack -o ${root}/opt.neff
                RESULT_VARIABLE rc ERROR_QUIET)
if(rc)
  message(FATAL_ERROR "opt failed")
endif()

# Builds DIR; RAN is set to whether the NEFF's command ran.
function(build dir ran)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${dir} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "building ${dir} failed: ${out}")
  endif()
  string(FIND "${out}" "weightpack: NEFF mlp.neff" at)
  if(at EQUAL -1)
    set(${ran} FALSE PARENT_SCOPE)
  else()
    set(${ran} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(expect dir step want)
  build(${dir} ran)
  if(NOT ran STREQUAL want)
    message(FATAL_ERROR "${dir}: ${step}: the NEFF was ${ran} rebuilt, expected ${want}")
  endif()
endfunction()

foreach(gen Ninja "Unix Makefiles")
  string(REPLACE " " "-" tag "${gen}")
  set(dir ${root}/${tag})
  execute_process(COMMAND ${CMAKE_COMMAND} -G "${gen}" "-DCMAKE_PREFIX_PATH=${root}/prefix;${LLVM_ROOT}"
                          -DMODEL=${root}/model -S ${SRC}/test/build-systems/cmake-project -B ${dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc)
    message(FATAL_ERROR "configuring with ${gen} failed: ${out}")
  endif()
  expect(${dir} "first build" TRUE)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${dir}/neffs/mlp.neff ${root}/opt.neff
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${gen}: the NEFF differs from opt's")
  endif()
  if(NOT EXISTS ${dir}/neffs/mlp.neff.d)
    message(FATAL_ERROR "${gen}: no depfile")
  endif()
  expect(${dir} "second build" FALSE)
  file(TOUCH ${root}/model/weights/w1.npy)
  expect(${dir} "a weight touched" TRUE)
  expect(${dir} "then again" FALSE)
  file(TOUCH ${root}/model/weights/unused.npy)
  expect(${dir} "an unused file touched" FALSE)
  file(TOUCH ${root}/model/metadata.json)
  expect(${dir} "metadata.json touched" TRUE)
endforeach()
