// Assignment to locals whose type is a class in the interpreter: tl::half and the other
// storage types (`h = f` converts like `tl::half h = f;`), and tiles outside templates
// (`t = ...`, `t += ...`), which reach the translator as the classes' operators.
#include <tilec/tl.h>

TILEC_KERNEL void assign_scalars(const float* x, float* out, float f, tl::half h2) {
  auto offs = tl::arange<0, 128>();
  tl::half h = 1.0f;
  h = f * 2.0f;
  tl::bfloat16 b = 1.0f;
  b = f;
  tl::float8_e4m3 e4 = 1.0f;
  e4 = f;
  tl::float8_e5m2 e5 = 1.0f;
  e5 = f;
  tl::half k = 1.0f;
  k = 2.5; // double -> float -> half, as the converting constructor takes a float
  tl::half same = 1.0f;
  same = h2;
  tl::store(out + offs, tl::load(x + offs) * h + b + e4 + e5 + k + same);
}

TILEC_KERNEL void assign_tiles(const tl::half* x, float* out) {
  auto offs = tl::arange<0, 128>();
  auto a = tl::load(x + offs);
  auto acc = tl::zeros<float, 128>();
  for (int i = 0; i < 4; ++i) {
    acc += a;
    acc = acc * 2.0f;
  }
  a *= 3; // keeps a's type
  auto copy = a;
  copy = a + a;
  tl::store(out + offs, acc + copy);
}

// IR-LABEL: kernel @assign_scalars<>
// IR:       %[[F:[0-9]+]]:f = param [2] : float
// IR:       = binary "*" %[[F]]:f, %{{[0-9]+}} : float
// IR-NEXT:  %[[H:[0-9]+]]:h = cast %{{[0-9]+}} : tl::half
// IR:       %[[B:[0-9]+]]:b = cast %[[F]]:f : tl::bfloat16
// IR:       %[[E4:[0-9]+]]:e4 = cast %[[F]]:f : tl::float8_e4m3
// IR:       %[[E5:[0-9]+]]:e5 = cast %[[F]]:f : tl::float8_e5m2
// IR:       = constant [2.5] : double
// IR-NEXT:  = cast %{{[0-9]+}} : float
// IR-NEXT:  %[[K:[0-9]+]]:k = cast %{{[0-9]+}} : tl::half
// IR:       = cast %[[H]]:h : float
// IR:       = cast %[[B]]:b : float
// IR:       = cast %[[E4]]:e4 : float
// IR:       = cast %[[E5]]:e5 : float
// IR:       = cast %[[K]]:k : float
// IR:       = cast %3:h2 : float
// IR-LABEL: kernel @assign_tiles<>
// IR:       %[[A:[0-9]+]]:a = load
// IR:       :acc = for
// IR:         ^(%{{[0-9]+}}:i : int, %[[ACC:[0-9]+]]:acc : tile<float, 128>)
// IR-NEXT:    %[[AF:[0-9]+]] = cast %[[A]]:a : tile<float, 128>
// IR-NEXT:    %[[SUM:[0-9]+]]:acc = binary "+" %[[ACC]]:acc, %[[AF]] : tile<float, 128>
// IR-NEXT:    = constant [2.0f] : float
// IR-NEXT:    %[[TWICE:[0-9]+]]:acc = binary "*" %[[SUM]]:acc, %{{[0-9]+}} : tile<float, 128>
// IR-NEXT:    yield %[[TWICE]]:acc
// IR:       %[[A3:[0-9]+]]:a = binary "*" %[[A]]:a, %{{[0-9]+}} : tile<tl::half, 128>
// IR-NEXT:  %[[COPY:[0-9]+]]:copy = binary "+" %[[A3]]:a, %[[A3]]:a : tile<tl::half, 128>

// CU-LABEL: assign_scalars(const float* x, float* out, float f, tl::half h2) {
// CU:       const tl::half h_1 = tilec::cast<tl::half>((f * 2.0f));
// CU:       const tl::bfloat16 b_1 = tilec::cast<tl::bfloat16>(f);
// CU:       const tl::float8_e4m3 e4_1 = tilec::cast<tl::float8_e4m3>(f);
// CU:       (t{{[0-9]+}}[i] * tilec::cast<float>(h_1)) + tilec::cast<float>(b_1)
// CU-LABEL: assign_tiles(const tl::half* x, float* out) {
// CU:       a_1[i] = (a[i] * tilec::cast<tl::half>(3));
// CU:       copy[i] = (a_1[i] + a_1[i]);
