// --line-directives: each statement of the generated CUDA is preceded by a #line back to the
// kernel source, so that compiler errors and debuggers point at the .cpp.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void copy(const float* x, float* out, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  tl::store(out + offs, tl::load(x + offs, mask), mask);
}

// CU:       #line 7 "{{.*}}line_directives.cpp"
// CU-NEXT:    // line_directives.cpp:7: tl::program_id(0)
// CU:       #line 7 "{{.*}}line_directives.cpp"
// CU-NEXT:    // line_directives.cpp:7: tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>()
// CU:       #line 8 "{{.*}}line_directives.cpp"
// CU-NEXT:    // line_directives.cpp:8: offs < n
// CU:       #line 9 "{{.*}}line_directives.cpp"
// CU-NEXT:    // line_directives.cpp:9: tl::load(x + offs, mask)
// CU:       #line 9 "{{.*}}line_directives.cpp"
// CU-NEXT:    // line_directives.cpp:9: tl::store(out + offs, tl::load(x + offs, mask), mask)
