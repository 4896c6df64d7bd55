// tilec/tl/random.h - counter-based random numbers (Philox 4x32-10), as Triton's
// tl.randint / rand / randn: the numbers are a pure function of (seed, offset), so a kernel
// can recompute them (dropout's mask in the backward pass) and the GPU gives the same
// integers and uniform floats bit for bit.
//
// For every offset (an int32/uint32 scalar or tile, taken as uint32):
//   words = philox(offset, 0, 0, 0, uint32(seed), uint32(uint64(seed) >> 32))
//   randint   -> words[0] (uint32_t);  randint4x -> all four
//   rand      -> uniform(words[0]) in [0, 1), where uniform(w): x = int32(w);
//                x = x < 0 ? -x - 1 : x (INT_MIN -> INT_MAX); float(x) * 4.6566127342e-10f
//   randn     -> Box-Muller: u1 = max(1e-7f, uniform(w0)), u2 = uniform(w1),
//                sqrtf(-2 logf(u1)) * cosf(6.283185307179586f * u2)
//                (float math; equal to the GPU's up to the last bits of logf/cosf)
//   rand4x / randn4x -> four uniforms / four normals ((w0, w1) give cos and sin, (w2, w3) too)
// The seed is any integer scalar; a negative int32 seed sign-extends to 64 bits.
#pragma once

#include <tilec/tl/tile.h>

#include <array>

namespace tl {

/// Philox 4x32 with 10 rounds (Salmon et al., Random123): counter (c0..c3), key (k0, k1).
inline std::array<uint32_t, 4> philox(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                      uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(0xD2511F53u) * c0;
    const uint64_t p1 = uint64_t(0xCD9E8D57u) * c2;
    const uint32_t n0 = uint32_t(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = uint32_t(p0 >> 32) ^ c3 ^ k1;
    c1 = uint32_t(p1);
    c3 = uint32_t(p0);
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {c0, c1, c2, c3};
}

namespace detail {

template <class S> constexpr void check_seed() {
  static_assert(std::is_integral_v<S> && !std::is_same_v<S, bool>,
                "tl random functions need an integer seed");
}
template <class O> constexpr void check_offsets() {
  static_assert(is_int_elem_v<elem_t<O>> && sizeof(elem_t<O>) == 4,
                "tl random functions need int32 or uint32 offsets");
}

template <class S, class O> std::array<uint32_t, 4> philox_words(S seed, const O &offset) {
  const uint64_t key = uint64_t(seed);
  return philox(uint32_t(offset), 0, 0, 0, uint32_t(key), uint32_t(key >> 32));
}

/// A random word as a float in [0, 1).
inline float uniform_float(uint32_t w) {
  int32_t x = int32_t(w);
  if (x < 0)
    x = ~x; // -x - 1 without overflow
  return float(x) * 4.6566127342e-10f;
}

/// Box-Muller: the pair of normals from two random words.
inline std::array<float, 2> normal_pair(uint32_t w0, uint32_t w1) {
  const float u1 = std::fmax(1.0e-7f, uniform_float(w0));
  const float u2 = uniform_float(w1);
  const float r = std::sqrt(-2.0f * std::log(u1));
  const float theta = 6.283185307179586f * u2;
  return {r * std::cos(theta), r * std::sin(theta)};
}

/// Four results of type R per offset: f(words) gives them as an array.
template <class R, class S, class O, class F> auto random4(S seed, const O &offsets, F f) {
  check_seed<S>();
  check_offsets<O>();
  std::array<tile_of_t<R, shape_t<O>>, 4> out{};
  if constexpr (is_tile_v<O>) {
    for (int i = 0; i < shape_t<O>::size; ++i) {
      const auto v = f(philox_words(seed, offsets.elems[i]));
      for (int k = 0; k < 4; ++k)
        out[k].elems[i] = v[k];
    }
  } else {
    const auto v = f(philox_words(seed, offsets));
    for (int k = 0; k < 4; ++k)
      out[k] = v[k];
  }
  return out;
}

/// One result of type R per offset: f(words).
template <class R, class S, class O, class F> auto random1(S seed, const O &offsets, F f) {
  check_seed<S>();
  check_offsets<O>();
  return map<R>([seed, &f](const auto &o) { return f(philox_words(seed, o)); }, offsets);
}

} // namespace detail

/// Random uint32 per offset (word 0 of Philox).
template <class S, class O> auto randint(S seed, const O &offsets) {
  return detail::random1<uint32_t>(seed, offsets,
                                   [](const std::array<uint32_t, 4> &w) { return w[0]; });
}

/// The four random uint32 words per offset (structured binding: auto [a, b, c, d] = ...).
template <class S, class O> auto randint4x(S seed, const O &offsets) {
  return detail::random4<uint32_t>(seed, offsets,
                                   [](const std::array<uint32_t, 4> &w) { return w; });
}

/// Uniform float in [0, 1) per offset.
template <class S, class O> auto rand(S seed, const O &offsets) {
  return detail::random1<float>(
      seed, offsets, [](const std::array<uint32_t, 4> &w) { return detail::uniform_float(w[0]); });
}

/// Four uniform floats in [0, 1) per offset.
template <class S, class O> auto rand4x(S seed, const O &offsets) {
  return detail::random4<float>(seed, offsets, [](const std::array<uint32_t, 4> &w) {
    return std::array<float, 4>{detail::uniform_float(w[0]), detail::uniform_float(w[1]),
                                detail::uniform_float(w[2]), detail::uniform_float(w[3])};
  });
}

/// Standard normal float per offset.
template <class S, class O> auto randn(S seed, const O &offsets) {
  return detail::random1<float>(seed, offsets, [](const std::array<uint32_t, 4> &w) {
    return detail::normal_pair(w[0], w[1])[0];
  });
}

/// Four standard normal floats per offset.
template <class S, class O> auto randn4x(S seed, const O &offsets) {
  return detail::random4<float>(seed, offsets, [](const std::array<uint32_t, 4> &w) {
    const auto a = detail::normal_pair(w[0], w[1]), b = detail::normal_pair(w[2], w[3]);
    return std::array<float, 4>{a[0], a[1], b[0], b[1]};
  });
}

} // namespace tl
