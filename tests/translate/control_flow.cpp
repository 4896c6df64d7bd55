// Scalar control flow with tiles carried through it: a run-time for loop accumulating
// loads, an if on a scalar and an if constexpr on a template parameter.
#include <tilec/tl.h>

template <int BLOCK, bool SCALE>
TILEC_KERNEL void column_mean(const float* x, float* out, int rows, int n, float s) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto acc = tl::zeros<float, BLOCK>();
  for (int r = 0; r < rows; r++)
    acc = acc + tl::load(x + r * n + offs, mask);
  if (rows > 1)
    acc = acc / rows;
  if constexpr (SCALE)
    acc = acc * s;
  tl::store(out + offs, acc, mask);
}

// IR-LABEL: kernel @column_mean<int BLOCK, bool SCALE>
// IR:       %[[LOOP:[0-9]+]]:acc = for "<" %{{[0-9]+}}, %2:rows, %{{[0-9]+}}, %{{[0-9]+}}:acc
// IR:       ^(%{{[0-9]+}}:r : int, %{{[0-9]+}}:acc : tile<float, BLOCK>)
// IR:       yield %{{[0-9]+}}:acc
// IR:       %[[IF:[0-9]+]]:acc = if %{{[0-9]+}}, %[[LOOP]]:acc
// IR:       } else {
// IR-NEXT:  yield %[[LOOP]]:acc
// IR:       = if constexpr(SCALE) %[[IF]]:acc

// CU:       for (int r = 0; r < rows; r += 1) {
// CU:         tilec::load_vec<{{.*}}>(&{{t[0-9]+}}[i], ((x + (r * n)) + offs[i]), &mask[i], 0.0f);
// CU:       }
// CU:       if ((rows > 1)) {
// CU:       if constexpr (SCALE) {
