// Tensor descriptors spelled wrong: each error names what to write instead.
#include <tilec/tl.h>

template <class T, int B>
TILEC_KERNEL void strided_last(const T *x, T *y, int n, int s) {
  auto d = tl::make_tensor_descriptor<B, B>(x, {n, n}, {n, s});
  auto o = tl::make_tensor_descriptor<B, B>(y, {n, n}, {n, 1});
  o.store({0, 0}, d.load({0, 0}));
}

template <class T, int B>
TILEC_KERNEL void wrong_lengths(const T *x, T *y, int n) {
  auto d = tl::make_tensor_descriptor<B, B>(x, {n}, {n, 1});
  auto o = tl::make_tensor_descriptor<B>(y, {n}, {1});
  o.store({0, 0}, tl::zeros<T, B>());
}

template <class T, int B>
TILEC_KERNEL void misuse(const T *x, T *y, int n) {
  auto d = tl::make_tensor_descriptor<B>(x, {n}, {1});
  auto e = d;
  auto t = d.prefetch({0});
  d.store({0}, tl::zeros<T, B>());
  auto o = tl::make_tensor_descriptor<B>(y, {n}, {1});
  o.store({0}, tl::zeros<T, 2 * B>());
}
// CHECK: descriptor_misuse.cpp:6:60: error: the last stride of a tensor descriptor must be the literal 1 (its last dimension contiguous, as Hopper's copy engine requires); for a tensor stored transposed, describe it with its dimensions swapped and tl::trans the box
// CHECK: descriptor_misuse.cpp:13:48: error: a tensor descriptor's shape is a braced list of 2 integers, one per dimension of its box: tl::make_tensor_descriptor<BLOCK_M, BLOCK_N>(base, {M, N}, {stride_m, 1})
// CHECK: descriptor_misuse.cpp:15:11: error: the box's offsets are a braced list of 1 integer, one per dimension: o.store({i0}, t)
// CHECK: descriptor_misuse.cpp:21:12: error: 'd' is a tensor descriptor: use it through d.load({...}) and .store({...}, tile) in the kernel that makes it
// CHECK: descriptor_misuse.cpp:22:12: error: a tensor descriptor has .load({offsets}) and .store({offsets}, tile), not .prefetch
// CHECK: descriptor_misuse.cpp:23:3: error: storing through a descriptor of a pointer to const
// CHECK: descriptor_misuse.cpp:25:16: error: the stored tile must have the descriptor's box shape [B], not [2 * B]
