// Block pointers spelled wrong: each error names what to write instead.
#include <tilec/tl.h>

template <class T, int B>
TILEC_KERNEL void wrong_lists(const T *x, T *y, int n) {
  auto p = tl::make_block_ptr<B, B>(x, {n}, {n, 1}, {0, 0});
  auto q = tl::make_block_ptr<B, B>(y, {n, n}, {n, 1}, {0, 0}, {0, 0});
  auto r = tl::make_block_ptr<B>(y, {n}, {1}, {0});
  tl::store(r, tl::zeros<T, B>(), {1});
  auto t = tl::load(r, {0}, 3);
}

template <class T, int B>
TILEC_KERNEL void misuse(const T *x, T *y, int n) {
  auto p = tl::make_block_ptr<B>(x, {n}, {1}, {0});
  auto e = p + 1;
  tl::advance(p, {B});
  p += B;
  auto o = tl::make_block_ptr<B>(y, {n}, {1}, {0});
  o = tl::make_block_ptr<B>(y, {2 * n}, {1}, {0});
  tl::store(p, tl::load(p));
  tl::store(o, tl::zeros<T, 2 * B>());
  auto s = tl::advance(x, {B});
}
// CHECK: block_ptr_misuse.cpp:6:40: error: a block pointer's shape is a braced list of 2 integers, one per dimension of the box: tl::make_block_ptr<BLOCK_M, BLOCK_K>(base, {M, K}, {stride_m, stride_k}, {m0, k0})
// CHECK: block_ptr_misuse.cpp:7:64: error: a block pointer's order is a permutation of its dimensions, as constants (fastest first): {1, 0}
// CHECK: block_ptr_misuse.cpp:9:35: error: the boundary check is a braced list of distinct dimensions of the box, as constants: {0} (elements outside those read as zero and are not stored)
// CHECK: block_ptr_misuse.cpp:10:12: error: tl::load of a block pointer takes the pointer and the dimensions to bounds-check: tl::load(p) or tl::load(p, {0, 1})
// CHECK: block_ptr_misuse.cpp:16:12: error: 'p' is a block pointer: use it through tl::load(p, ...), tl::store(p, ...) and p = tl::advance(p, {...})
// CHECK: block_ptr_misuse.cpp:17:3: error: tl::advance returns the moved block pointer: p = tl::advance(p, {0, BLOCK_K})
// CHECK: block_ptr_misuse.cpp:18:3: error: a block pointer moves with tl::advance: p = tl::advance(p, {...})
// CHECK: block_ptr_misuse.cpp:20:3: error: 'o' keeps the tensor and box it was made with (base, shape, strides, block): move it with o = tl::advance(o, {...}), or declare another block pointer for another tensor
// CHECK: block_ptr_misuse.cpp:21:3: error: storing through a block pointer of a pointer to const
// CHECK: block_ptr_misuse.cpp:22:16: error: the stored tile must have the block pointer's box shape [B], not [2 * B]
// CHECK: block_ptr_misuse.cpp:23:24: error: tl::advance moves a block pointer (made by tl::make_block_ptr); for a tile of pointers, add the step: ptrs += BLOCK_K
