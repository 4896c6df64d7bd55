// multiple_of / max_contiguous change what the contiguity analysis proves (and with it the
// access widths): the same gather without and with hints.
#include <tilec/tl.h>

template <int BLOCK>
TILEC_KERNEL void plain(const int* idx, const float* x, float* out, int start) {
  auto offs = start + tl::arange<0, BLOCK>();
  auto j = tl::load(idx + offs);
  tl::store(out + offs, tl::load(x + j));
}

template <int BLOCK>
TILEC_KERNEL void hinted(const int* idx, const float* x, float* out, int start) {
  auto offs = tl::multiple_of<16>(start) + tl::arange<0, BLOCK>();
  auto j = tl::max_contiguous<4>(tl::multiple_of<4>(tl::load(idx + offs)));
  tl::store(out + offs, tl::load(x + j));
}

// Without hints: start is a multiple of 16 only when the DIV16 fact says so, and loaded
// indices are not known to be contiguous at all.
// IR-LABEL: kernel @plain<int BLOCK>
// IR:       %5:offs = binary "+" %3:start, %4 : tile<int, BLOCK>  {contig=BLOCK div=(start_div16 ? 16 : 1) const=1}
// IR:       %7:j = load %6 : tile<int, BLOCK>  {contig=1 div=1 const=1}
// IR:       = addptr %1:x, %7:j : tile<const float*, BLOCK>  {contig=1 div=4 const=1}

// With hints: start is a multiple of 16 whatever the fact, and the indices come in
// contiguous runs of 4 starting at multiples of 4.
// IR-LABEL: kernel @hinted<int BLOCK>
// IR:       %4 = hint "multiple_of" %3:start [16] : int
// IR:       %6:offs = binary "+" %4, %5 : tile<int, BLOCK>  {contig=BLOCK div=16 const=1}
// IR:       %9 = hint "multiple_of" %8 [4] : tile<int, BLOCK>  {contig=1 div=4 const=1}
// IR-NEXT:  %10:j = hint "max_contiguous" %9 [4] : tile<int, BLOCK>  {contig=tilec::cmin(4, BLOCK) div=4 const=1}
// IR:       = addptr %1:x, %10:j : tile<const float*, BLOCK>  {contig=tilec::cmin(
// IR-SAME:  div=(x_aligned ? 16 : 4)

// The hints themselves generate no code.
// CU-LABEL: hinted(
// CU-NOT:   tilec::multiple_of
// CU:       offs[i] = (start + L0::coord(tid, i));
// CU-NOT:   tilec::max_contiguous
// CU:       tilec::load_vec<{{t[0-9]+}}_width>(&{{t[0-9]+}}[i], (x + j[i]));
