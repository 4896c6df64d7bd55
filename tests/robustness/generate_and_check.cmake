# Writes a machine-made kernel of SHAPE repeated COUNT times, runs tilec on it and checks the
# exit status (RC) and, when given, a regular expression over stderr (STDERR_REGEX). Inputs
# this size would bloat the repository, so they are made here.
# With MAX_LINE, no line of the generated .cu may be longer (expressions stay shallow).
# cmake -DTILEC=... -DSHAPE=add_chain|negations|reassign|offsets|else_if -DCOUNT=n -DRC=0|1
#       [-DSTDERR_REGEX=...] [-DMAX_LINE=n] [-DARGS=a|b] -DWORK=dir -P generate_and_check.cmake
string(REPLACE "|" ";" args "${ARGS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(body "  auto a = tl::load(x + offs, mask);\n")
if(SHAPE STREQUAL "add_chain") # a + a + ... + a: one expression, COUNT levels deep
  string(REPEAT " + a" ${COUNT} terms)
  string(APPEND body "  tl::store(out + offs, a${terms}, mask);\n")
elseif(SHAPE STREQUAL "negations") # - - ... - a: clang's parser recurses per level too
  string(REPEAT "- " ${COUNT} minus)
  string(APPEND body "  tl::store(out + offs, ${minus}a, mask);\n")
elseif(SHAPE STREQUAL "reassign") # COUNT statements reassigning one variable
  string(REPEAT "  a = a + 1.0f;\n" ${COUNT} lines)
  string(APPEND body "${lines}  tl::store(out + offs, a, mask);\n")
elseif(SHAPE STREQUAL "offsets") # COUNT single-use updates of an index tile and a pointer
  string(REPEAT "  o = o + 1;\n  p = p + 1;\n" ${COUNT} lines)
  string(APPEND body "  auto o = offs;\n  auto p = x + offs;\n${lines}"
         "  tl::store(out + o, a + tl::load(p, mask), mask);\n")
elseif(SHAPE STREQUAL "else_if") # if ... else if ... COUNT times: a nest of statements
  string(REPEAT "  else if (n == 2) s = 2.0f;\n" ${COUNT} ladder)
  string(APPEND body "  float s = 0.0f;\n  if (n == 1) s = 1.0f;\n${ladder}"
         "  tl::store(out + offs, a + s, mask);\n")
else()
  message(FATAL_ERROR "unknown SHAPE '${SHAPE}'")
endif()
file(WRITE "${WORK}/${SHAPE}.cpp"
     "#include <tilec/tl.h>\n"
     "template <int BLOCK>\n"
     "TILEC_KERNEL void k(const float* x, float* out, int n) {\n"
     "  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();\n"
     "  auto mask = offs < n;\n"
     "${body}}\n")
execute_process(COMMAND "${TILEC}" "${WORK}/${SHAPE}.cpp" -o "${WORK}/out" ${args}
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
# RESULT_VARIABLE is a message such as "Segmentation fault" when tilec dies by a signal.
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "tilec must exit with status ${RC}, got '${rc}'; stderr:\n${err}")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}':\n${err}")
endif()
if(DEFINED MAX_LINE)
  file(STRINGS "${WORK}/out/${SHAPE}.cu" lines)
  foreach(line IN LISTS lines)
    string(LENGTH "${line}" n)
    if(n GREATER MAX_LINE)
      message(FATAL_ERROR "a line of ${SHAPE}.cu has ${n} characters (at most ${MAX_LINE})")
    endif()
  endforeach()
endif()
