// tl::randint4x / rand4x / randn4x (four Philox words per offset) run in the interpreter only;
// the translator's error says what to write instead.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void noise(float *out, int seed) {
  auto offs = tl::arange<0, BLOCK>();
  auto [a, b, c, d] = tl::rand4x(seed, offs);
  tl::store(out + offs, a + b + c + d);
}

// CHECK: random_four_words.cpp:[[@LINE-4]]:23: error: tl::rand4x is not supported by the translator yet; call tl::rand once per value, with offsets that differ per value (4 * offs + k): the values are then not those of tl::rand4x
