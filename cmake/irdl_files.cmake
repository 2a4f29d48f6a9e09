# cmake -DOPT=... -DOUT=DIR -P irdl_files.cmake: the IRDL files for mlir-opt.
foreach(d hlo bir all)
  set(name ${d})
  if(d STREQUAL "all")
    set(name weightpack)
  endif()
  execute_process(COMMAND ${OPT} --print-irdl=${d} OUTPUT_FILE ${OUT}/${name}.irdl.mlir
                  RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "opt --print-irdl=${d} failed")
  endif()
endforeach()
