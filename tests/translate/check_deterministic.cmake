# Translates each of INPUTS twice (a|b|c) and requires byte-identical outputs, including the
# IR dump: golden tests must never depend on pointer values or hash order.
string(REPLACE "|" ";" inputs "${INPUTS}")
file(REMOVE_RECURSE "${WORK}")
foreach(input IN LISTS inputs)
  get_filename_component(stem "${input}" NAME_WE)
  foreach(run a b)
    file(MAKE_DIRECTORY "${WORK}/${run}")
    execute_process(COMMAND "${TILEC}" "${input}" -o "${WORK}/${run}" --dump-after=layout
                            --line-directives
                    OUTPUT_FILE "${WORK}/${run}/${stem}.dump" ERROR_VARIABLE err RESULT_VARIABLE rc)
    if(NOT rc STREQUAL "0")
      message(FATAL_ERROR "tilec ${input} failed (${rc}):\n${err}")
    endif()
  endforeach()
  foreach(out ${stem}.cu ${stem}.tilec.h ${stem}.dump)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${WORK}/a/${out}" "${WORK}/b/${out}"
                    RESULT_VARIABLE same)
    if(NOT same STREQUAL "0")
      message(FATAL_ERROR "${out} differs between two translations of ${input}")
    endif()
  endforeach()
endforeach()
