// One decoding step of Mamba's selective state space update, ported from Mamba
// (github.com/state-spaces/mamba, mamba_ssm/ops/triton/selective_state_update.py at e9594ce1:
// _selective_scan_update_kernel, with softplus from mamba_ssm/ops/triton/softplus.py;
// Apache License 2.0).
//
// A program updates BLOCK_SIZE_M rows (of dim) of one head of one batch entry's
// [dim, dstate] state: state = state * exp(A * dt) + (B * dt) * x, then
// out = sum(state * C, dstate) (+ x * D) (* silu(z)). With TIE_HDIM, dt and A are one value per
// head (strides 0 on the host); with state_batch_indices, the batch entry picks its state
// row, and a negative index (a padding token) writes zeros to out and leaves.
//
// Differences from the original: its optional pointers (dt_bias, D, z, state_batch_indices:
// Triton heuristics that test `ptr is not None`) are bool template parameters, as the
// original's HAS_* constexprs are; the pointers may then be null. The element types are three
// template parameters: TS for the state, T for x, dt, B, C, z and out, TW for A, D and dt_bias.
// TIE_HDIM makes dt and dA scalars and dB a row in the original; the names cannot change type
// between the two branches of an if constexpr in C++, so the update
// `state = state * dA + dB * x[:, None]` is written in each branch, and the pointer tiles of
// the optional inputs (dt_bias_ptrs, D_ptrs, z_ptrs) are made in the branches that load them
// (Python's scoping lets the original make them in earlier if-blocks; made unconditionally,
// they would offset a null pointer). Like the original, it takes 45 arguments, 29 of them
// strides: the launcher's 64-bit specialization mask keeps their alignment facts and the
// state's unit stride along dstate (the original's Triton specialization on stride == 1).
// With TIE_HDIM `state * dA` multiplies in float, as in Triton, where dA is a tensor: the
// state is cast first (tilec keeps a tile's type with any float scalar).
#include <tilec/tl.h>

TILEC_FUNC auto softplus(auto dt) { return tl::log(tl::exp(dt) + 1); }

template <class TS, class T, class TW, bool DT_SOFTPLUS, bool TIE_HDIM, int BLOCK_SIZE_M,
          bool HAS_DT_BIAS, bool HAS_D, bool HAS_Z, bool HAS_STATE_BATCH_INDICES,
          int BLOCK_SIZE_DSTATE>
TILEC_KERNEL void _selective_scan_update_kernel(
    // tensors
    TS *state_ptr, const T *x_ptr, const T *dt_ptr, const TW *dt_bias_ptr, const TW *A_ptr,
    const T *B_ptr, const T *C_ptr, const TW *D_ptr, const T *z_ptr, T *out_ptr,
    const int32_t *state_batch_indices_ptr,
    // sizes
    [[maybe_unused]] int batch, [[maybe_unused]] int nheads, int dim, int dstate,
    int nheads_ngroups_ratio,
    // strides (those of optional inputs unused without them)
    int stride_state_batch, int stride_state_head, int stride_state_dim, int stride_state_dstate,
    int stride_x_batch, int stride_x_head, int stride_x_dim, int stride_dt_batch,
    int stride_dt_head, [[maybe_unused]] int stride_dt_dim,
    [[maybe_unused]] int stride_dt_bias_head, [[maybe_unused]] int stride_dt_bias_dim,
    int stride_A_head, [[maybe_unused]] int stride_A_dim, [[maybe_unused]] int stride_A_dstate,
    int stride_B_batch, int stride_B_group, int stride_B_dstate, int stride_C_batch,
    int stride_C_group, int stride_C_dstate, [[maybe_unused]] int stride_D_head,
    [[maybe_unused]] int stride_D_dim, [[maybe_unused]] int stride_z_batch,
    [[maybe_unused]] int stride_z_head, [[maybe_unused]] int stride_z_dim, int stride_out_batch,
    int stride_out_head, int stride_out_dim) {
  int pid_m = tl::program_id(0);
  int pid_b = tl::program_id(1);
  int pid_h = tl::program_id(2);

  auto offs_m = pid_m * BLOCK_SIZE_M + tl::arange<0, BLOCK_SIZE_M>();
  out_ptr += pid_b * stride_out_batch + pid_h * stride_out_head;
  auto out_ptrs = out_ptr + offs_m * stride_out_dim;

  if constexpr (HAS_STATE_BATCH_INDICES) {
    state_batch_indices_ptr += pid_b;
    int state_batch_idx = tl::load(state_batch_indices_ptr);
    // a padding entry: zeros out, state untouched
    if (state_batch_idx < 0) {
      tl::store(out_ptrs, 0.0f, offs_m < dim);
      return;
    }
    state_ptr += state_batch_idx * stride_state_batch + pid_h * stride_state_head;
  } else {
    state_ptr += pid_b * stride_state_batch + pid_h * stride_state_head;
  }

  x_ptr += pid_b * stride_x_batch + pid_h * stride_x_head;
  dt_ptr += pid_b * stride_dt_batch + pid_h * stride_dt_head;
  if constexpr (HAS_DT_BIAS)
    dt_bias_ptr += pid_h * stride_dt_bias_head;
  A_ptr += pid_h * stride_A_head;
  B_ptr += pid_b * stride_B_batch + (pid_h / nheads_ngroups_ratio) * stride_B_group;
  C_ptr += pid_b * stride_C_batch + (pid_h / nheads_ngroups_ratio) * stride_C_group;
  if constexpr (HAS_Z)
    z_ptr += pid_b * stride_z_batch + pid_h * stride_z_head;

  auto offs_n = tl::arange<0, BLOCK_SIZE_DSTATE>();
  auto state_ptrs = state_ptr + (tl::expand_dims<1>(offs_m) * stride_state_dim +
                                 tl::expand_dims<0>(offs_n) * stride_state_dstate);
  auto x_ptrs = x_ptr + offs_m * stride_x_dim;
  auto dt_ptrs = dt_ptr + offs_m * stride_dt_dim;
  if constexpr (HAS_D)
    D_ptr += pid_h * stride_D_head;
  auto A_ptrs = A_ptr + (tl::expand_dims<1>(offs_m) * stride_A_dim +
                         tl::expand_dims<0>(offs_n) * stride_A_dstate);
  auto B_ptrs = B_ptr + offs_n * stride_B_dstate;
  auto C_ptrs = C_ptr + offs_n * stride_C_dstate;

  auto state = tl::load(
      state_ptrs, (tl::expand_dims<1>(offs_m) < dim) & (tl::expand_dims<0>(offs_n) < dstate), 0.0f);
  auto x = tl::cast<float>(tl::load(x_ptrs, offs_m < dim, 0.0f));

  auto B = tl::cast<float>(tl::load(B_ptrs, offs_n < dstate, 0.0f));
  auto C = tl::cast<float>(tl::load(C_ptrs, offs_n < dstate, 0.0f));
  auto D = tl::zeros<float, BLOCK_SIZE_M>();
  if constexpr (HAS_D) {
    auto D_ptrs = D_ptr + offs_m * stride_D_dim;
    D = tl::cast<float>(tl::load(D_ptrs, offs_m < dim, 0.0f));
  }
  auto z = tl::zeros<float, BLOCK_SIZE_M>();
  if constexpr (HAS_Z) {
    auto z_ptrs = z_ptr + offs_m * stride_z_dim;
    z = tl::cast<float>(tl::load(z_ptrs, offs_m < dim, 0.0f));
  }

  auto new_state = tl::zeros<float, BLOCK_SIZE_M, BLOCK_SIZE_DSTATE>();
  if constexpr (!TIE_HDIM) {
    auto dt = tl::cast<float>(tl::load(dt_ptrs, offs_m < dim, 0.0f));
    if constexpr (HAS_DT_BIAS) {
      auto dt_bias_ptrs = dt_bias_ptr + offs_m * stride_dt_bias_dim;
      dt += tl::cast<float>(tl::load(dt_bias_ptrs, offs_m < dim, 0.0f));
    }
    if constexpr (DT_SOFTPLUS)
      dt = tl::where(dt <= 20.0f, softplus(dt), dt);
    auto A = tl::cast<float>(tl::load(
        A_ptrs, (tl::expand_dims<1>(offs_m) < dim) & (tl::expand_dims<0>(offs_n) < dstate), 0.0f));
    auto dA = tl::exp(A * tl::expand_dims<1>(dt));
    auto dB = tl::expand_dims<0>(B) * tl::expand_dims<1>(dt);
    new_state = state * dA + dB * tl::expand_dims<1>(x);
  } else {
    float dt = tl::cast<float>(tl::load(dt_ptr));
    if constexpr (HAS_DT_BIAS)
      dt += tl::cast<float>(tl::load(dt_bias_ptr));
    if constexpr (DT_SOFTPLUS)
      dt = tl::where(dt <= 20.0f, softplus(dt), dt);
    float A = tl::cast<float>(tl::load(A_ptr));
    float dA = tl::exp(A * dt); // one value for the head
    auto dB = B * dt;           // [dstate]
    // dA is a float value (a tensor in the original), which promotes the state to float
    new_state = tl::cast<float>(state) * dA + dB * tl::expand_dims<1>(x);
  }
  tl::store(state_ptrs, new_state,
            (tl::expand_dims<1>(offs_m) < dim) & (tl::expand_dims<0>(offs_n) < dstate));
  auto out = tl::sum<1>(new_state * tl::expand_dims<0>(C));
  if constexpr (HAS_D)
    out += x * D;
  if constexpr (HAS_Z)
    out *= z * tl::sigmoid(z);
  tl::store(out_ptrs, out, offs_m < dim);
}
