// EXPECT: error error:
template <int BLOCK>
TILEC_KERNEL void k(float *out) { tl::store(out + tl::arange<0, BLOCK>(), 1.0f); }
