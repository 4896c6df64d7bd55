// A tile that an if or a loop updates keeps its own array when nothing reads its old value
// after the if or loop: the generated CUDA writes the result over it, as the source does,
// instead of copying it into a second variable first. Where the old value is still read (after
// the if, or by a loop's body on a later iteration), the copy stays. Reads before the if have
// happened by the time it writes, and an earlier if's result is an array like any other.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void soft_cap(const float *x, float *out, float cap, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  if (cap > 0.0f)
    v = tl::minimum(v, cap);
  tl::store(out + offs, v, mask);
}

template <int BLOCK>
TILEC_KERNEL void keeps_old(const float *x, float *out, float cap, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  auto w = v;
  if (cap > 0.0f)
    w = tl::minimum(v, cap);
  tl::store(out + offs, w - v, mask); // v is read after the if
}

template <int BLOCK>
TILEC_KERNEL void loop_reads_init(const float *x, float *out, int steps, int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  auto acc = v;
  for (int s = 0; s < steps; ++s)
    acc = acc * 0.5f + v; // every iteration reads the initial tile
  tl::store(out + offs, acc, mask);
}

template <int BLOCK>
TILEC_KERNEL void read_before(const float *x, float *out, float *sums, float cap, float gain,
                              int n) {
  auto offs = tl::program_id(0) * BLOCK + tl::arange<0, BLOCK>();
  auto mask = offs < n;
  auto v = tl::load(x + offs, mask, 0.0f);
  tl::store(sums + tl::program_id(0), tl::sum<0>(v)); // v is read before the ifs
  if (cap > 0.0f)
    v = tl::minimum(v, cap);
  if (gain != 1.0f) // reads the first if's result
    v = v * gain;
  tl::store(out + offs, v, mask);
}

// CU-LABEL: soft_cap(
// CU:       float v[L0::ELEMS];
// CU-NOT:   = v[i];
// CU:       if ((cap > 0.0f)) {
// CU:         v_1[i] = tilec::minimum(v[i], cap);
// CU:         v[i] = v_1[i];
// CU:       }
// CU:       tilec::store_vec<{{.*}}>((out + offs[i]), &v[i], &mask[i], L0::owner(tid));

// CU-LABEL: keeps_old(
// CU:       float v[L0::ELEMS];
// CU:       float [[W:w(_[0-9]+)?]][L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  [[W]][i] = v[i];
// CU:       if ((cap > 0.0f)) {

// CU-LABEL: loop_reads_init(
// CU:       float v[L0::ELEMS];
// CU:       float [[ACC:acc(_[0-9]+)?]][L0::ELEMS];
// CU-NEXT:  #pragma unroll
// CU-NEXT:  [[ACC]][i] = v[i];
// CU:       for (int s = 0; s < steps; s += 1) {

// CU-LABEL: read_before(
// CU:       float v[L0::ELEMS];
// CU:       tilec::reduce_tile<L0>(v,
// CU-NOT:   = v[i];
// CU:       if ((cap > 0.0f)) {
// CU:         v[i] = v_1[i];
// CU:       }
// CU-NOT:   = v[i];
// CU:       if ((gain != 1.0f)) {
// CU:         v_2[i] = (v[i] * gain);
// CU:         v[i] = v_2[i];
// CU:       }
// CU:       tilec::store_vec<{{.*}}>((out + offs[i]), &v[i], &mask[i], L0::owner(tid));
