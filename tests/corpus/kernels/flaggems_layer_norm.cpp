// LayerNorm forward, ported from FlagGems (github.com/FlagOpen/FlagGems,
// src/flag_gems/ops/layernorm.py at 532ff438: layer_norm_persistent_kernel,
// layer_norm_persistent_kernel_multiline, layer_norm_loop_kernel; Apache License 2.0).
//
// The host picks by the row length N: up to 128, the multiline kernel (TILE_M rows of one
// TILE_N tile per program); up to 4096, the persistent kernel (one row, one tile); beyond,
// the loop kernel, which runs Welford's update lane by lane over the row's tiles (the last,
// masked, tile separately), merges the lanes, and normalizes in a second sweep that starts
// from the last tile. Mean and rstd are stored per row in the mean/rstd tensors' type.
//
// Differences from the original: the original tests `weight_ptr is None` and
// `bias_ptr is None` (Triton specializes a kernel for None arguments) and then uses 1 or 0;
// tilec takes them as bool template parameters HAS_WEIGHT and HAS_BIAS (the pointer may then
// be null), and since a C++ variable cannot be a scalar in one branch and a tile in the other,
// w and b are float tiles declared before the branch (1 and 0 when absent). The weight and
// bias are converted to float where the original multiplies them with float tiles. The
// mean/rstd element type is a template parameter of its own (TS). eps is a float argument.
// The loop kernel's `m = final_m` (the lanes' mean tile rebound to the row's mean) is a new
// name, m_row: a C++ variable keeps its type.
// The backward kernels (layer_norm_backward_kernel, weight_bias_backward_kernel) are not
// ported.
#include <tilec/tl.h>

// The last multiple of b below a (the start of the row's last tile).
TILEC_FUNC auto prev_multiple_of(auto a, auto b) { return tl::cdiv(a, b) * b - b; }

template <class T, class TS, int TILE_N, bool HAS_WEIGHT, bool HAS_BIAS>
TILEC_KERNEL void layer_norm_persistent_kernel(const T *in_ptr, T *out_ptr, const T *weight_ptr,
                                               const T *bias_ptr, TS *out_mean_ptr,
                                               TS *out_rstd_ptr, [[maybe_unused]] int M, int N,
                                               float eps) {
  // one row per program, as one rank-1 tile
  int64_t pid = tl::program_id(0);

  auto n_offsets = tl::arange<0, TILE_N>();
  auto mask = n_offsets < N;

  auto x = tl::cast<float>(tl::load(in_ptr + pid * N + n_offsets, mask, 0.0f));
  float m = tl::sum(x) / N;
  auto d = x - m;
  auto s = tl::where(mask, d * d, 0);
  float sum_square = tl::sum(s);
  float var = sum_square / N;
  float rstd = tl::rsqrt(var + eps);

  tl::store(out_mean_ptr + pid, m);
  tl::store(out_rstd_ptr + pid, rstd);

  auto w = tl::full<float, TILE_N>(1);
  if constexpr (HAS_WEIGHT)
    w = tl::cast<float>(tl::load(weight_ptr + n_offsets, mask));
  auto b = tl::full<float, TILE_N>(0);
  if constexpr (HAS_BIAS)
    b = tl::cast<float>(tl::load(bias_ptr + n_offsets, mask));
  auto out = (x - m) * rstd * w + b;

  tl::store(out_ptr + pid * N + n_offsets, out, mask);
}

template <class T, class TS, int TILE_M, int TILE_N, bool HAS_WEIGHT, bool HAS_BIAS>
TILEC_KERNEL void layer_norm_persistent_kernel_multiline(const T *in_ptr, T *out_ptr,
                                                         const T *weight_ptr, const T *bias_ptr,
                                                         TS *out_mean_ptr, TS *out_rstd_ptr, int M,
                                                         int N, float eps) {
  // TILE_M rows per program
  int64_t pid = tl::program_id(0);
  auto m_offsets = pid * TILE_M + tl::arange<0, TILE_M>();
  auto m_mask = m_offsets < M;

  auto n_offsets = tl::expand_dims<0>(tl::arange<0, TILE_N>());
  auto n_mask = n_offsets < N;
  auto mask = tl::expand_dims<1>(m_mask) & n_mask;

  auto x =
      tl::cast<float>(tl::load(in_ptr + tl::expand_dims<1>(m_offsets) * N + n_offsets, mask, 0.0f));
  auto m = tl::sum<1>(x) / N;
  auto d = x - tl::expand_dims<1>(m);
  auto s = tl::where(mask, d * d, 0);
  auto sum_square = tl::sum<1>(s);
  auto var = sum_square / N;
  auto rstd = tl::rsqrt(var + eps);

  tl::store(out_mean_ptr + m_offsets, m, m_mask);
  tl::store(out_rstd_ptr + m_offsets, rstd, m_mask);

  auto w = tl::full<float, 1, TILE_N>(1);
  if constexpr (HAS_WEIGHT)
    w = tl::cast<float>(tl::load(weight_ptr + n_offsets, n_mask));
  auto b = tl::full<float, 1, TILE_N>(0);
  if constexpr (HAS_BIAS)
    b = tl::cast<float>(tl::load(bias_ptr + n_offsets, n_mask));
  auto out = (x - tl::expand_dims<1>(m)) * tl::expand_dims<1>(rstd) * w + b;

  tl::store(out_ptr + tl::expand_dims<1>(m_offsets) * N + n_offsets, out, mask);
}

template <class T, class TS, int TILE_N, bool HAS_WEIGHT, bool HAS_BIAS>
TILEC_KERNEL void layer_norm_loop_kernel(const T *in_ptr, T *out_ptr, const T *weight_ptr,
                                         const T *bias_ptr, TS *out_mean_ptr, TS *out_rstd_ptr,
                                         [[maybe_unused]] int M, int N, float eps) {
  // one row per program; Welford's running mean m, sum of squared deviations s and count
  // per lane, over the full tiles unmasked
  int64_t pid = tl::program_id(0);

  auto m = tl::zeros<float, TILE_N>();
  auto s = tl::zeros<float, TILE_N>();
  auto cnt = tl::zeros<int32_t, TILE_N>();
  auto num_steps = tl::cdiv(N, TILE_N);
  for (int step = 0; step < num_steps - 1; step += 1) {
    auto start_n = step * TILE_N;
    auto n_offsets = start_n + tl::arange<0, TILE_N>();
    auto x = tl::cast<float>(tl::load(in_ptr + pid * N + n_offsets));
    auto new_m = m + (x - m) / (step + 1);
    auto new_s = s + (x - new_m) * (x - m);
    cnt += 1;
    m = new_m;
    s = new_s;
  }

  // the last tile, masked
  for (int step = num_steps - 1; step < num_steps; step += 1) {
    auto start_n = step * TILE_N;
    auto n_offsets = start_n + tl::arange<0, TILE_N>();
    auto mask = n_offsets < N;
    auto x = tl::cast<float>(tl::load(in_ptr + pid * N + n_offsets, mask));
    auto new_m = tl::where(mask, m + (x - m) / (step + 1), m);
    auto new_s = tl::where(mask, s + (x - new_m) * (x - m), s);
    cnt += tl::cast<int32_t>(mask);
    m = new_m;
    s = new_s;
  }

  // merge the lanes' (mean, M2, count) into the row's
  float final_m = tl::sum(m * cnt) / N;
  float var = tl::sum(s + cnt * (m - final_m) * (m - final_m)) / N;
  float rstd = tl::rsqrt(var + eps);
  float m_row = final_m;
  // mean and rstd of the row
  tl::store(out_mean_ptr + pid, m_row);
  tl::store(out_rstd_ptr + pid, rstd);

  // second sweep, backwards from the last tile, while it may still be in cache
  auto prev_multiple = prev_multiple_of(N, TILE_N);
  // the last tile (masked) first
  for (int start_n = 0; start_n < TILE_N; start_n += TILE_N) {
    auto n_offsets = (prev_multiple - start_n) + tl::arange<0, TILE_N>();
    auto mask = n_offsets < N;
    auto x = tl::cast<float>(tl::load(in_ptr + pid * N + n_offsets, mask, 0.0f, tl::evict_first));
    auto w = tl::full<float, TILE_N>(1);
    if constexpr (HAS_WEIGHT)
      w = tl::cast<float>(tl::load(weight_ptr + n_offsets, mask));
    auto b = tl::full<float, TILE_N>(0);
    if constexpr (HAS_BIAS)
      b = tl::cast<float>(tl::load(bias_ptr + n_offsets, mask));
    auto out = w * (x - m_row) * rstd + b;
    tl::store(out_ptr + pid * N + n_offsets, out, mask);
  }

  for (int start_n = TILE_N; start_n < N; start_n += TILE_N) {
    auto n_offsets = (prev_multiple - start_n) + tl::arange<0, TILE_N>();
    auto x = tl::cast<float>(tl::load(in_ptr + pid * N + n_offsets, tl::evict_first));
    auto w = tl::full<float, TILE_N>(1);
    if constexpr (HAS_WEIGHT)
      w = tl::cast<float>(tl::load(weight_ptr + n_offsets));
    auto b = tl::full<float, TILE_N>(0);
    if constexpr (HAS_BIAS)
      b = tl::cast<float>(tl::load(bias_ptr + n_offsets));
    auto out = w * (x - m_row) * rstd + b;
    tl::store(out_ptr + pid * N + n_offsets, out);
  }
}
