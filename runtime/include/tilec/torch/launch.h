// tilec/torch/launch.h - the checks and the device/stream set-up of one launch on tensors.
// A tensor launcher (see tilec/torch.h) builds a Launch from its pointer arguments, then calls
// the pointer launcher with stream() and data<T>(i) while the Launch is alive.
#pragma once

#include <tilec/runtime.h>
#include <tilec/torch/tensor_arg.h>

#include <c10/core/Device.h>
#include <c10/util/Exception.h>
#include <c10/util/SmallVector.h>

#include <initializer_list>
#include <optional>
#include <string>

// CUDA launches need LibTorch's CUDA part (c10_cuda); without it the checks still run.
#ifndef TILEC_TORCH_CUDA
#if __has_include(<c10/cuda/CUDAStream.h>) && __has_include(<cuda_runtime_api.h>)
#define TILEC_TORCH_CUDA 1
#else
#define TILEC_TORCH_CUDA 0
#endif
#endif
#if TILEC_TORCH_CUDA
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace tilec::torch {

namespace detail {

} // namespace detail

/// "[4, 8]": sizes or strides for messages. Built with std::to_string, not an ostream: in an
/// extension compiled as C++20 with GCC 13 and loaded into PyTorch 2.11's wheels, inserting an
/// integer into a std::ostringstream crashed (the stream's own instantiation of
/// ostream::_M_insert<long>), so messages from extensions should not format numbers that way.
inline std::string shape_text(c10::IntArrayRef dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

namespace detail {

inline std::string layout_words(const at::Tensor &t) {
  return "sizes " + shape_text(t.sizes()) + " and strides " + shape_text(t.strides());
}

// Whether the last dimension is dense (or has at most one element).
inline bool rows_dense(const at::Tensor &t) {
  return t.dim() == 0 || t.size(-1) <= 1 || t.stride(-1) == 1;
}

// Throws unless `s` describes a tensor the kernel can take.
inline void check_arg(const char *kernel, const ArgSpec &s) {
  const at::Tensor &t = s.arg->tensor;
  TORCH_CHECK(t.defined(), kernel, ": argument '", s.name, "' is an undefined tensor");
  TORCH_CHECK(t.is_cuda(), kernel, ": argument '", s.name, "' must be a CUDA tensor, got one on ",
              t.device());
  TORCH_CHECK_TYPE(t.scalar_type() == s.type, kernel, ": argument '", s.name,
                   "' must be a tensor of ", c10::toString(s.type), ", got ",
                   c10::toString(t.scalar_type()));
  switch (s.arg->layout) {
  case Layout::Contiguous:
    TORCH_CHECK(t.is_contiguous(), kernel, ": argument '", s.name,
                "' must be contiguous (the kernel indexes it as one dense array), got ",
                layout_words(t),
                "; pass .contiguous(), or tilec::torch::rows() when the kernel takes its row "
                "stride");
    break;
  case Layout::Rows:
    TORCH_CHECK(rows_dense(t), kernel, ": argument '", s.name,
                "' must have a dense last dimension (stride 1), got ", layout_words(t));
    break;
  case Layout::Strided:
    break;
  }
}

} // namespace detail

class Launch {
public:
  /// Checks `args`: the inputs (const pointers) first, then the outputs, each in parameter
  /// order, so that a bad input is named rather than the output made from it; then that they
  /// share one device. Sets that device and finds its current stream. Throws c10::Error before
  /// anything runs.
  Launch(const char *kernel, std::initializer_list<ArgSpec> args) {
    const ArgSpec *first = nullptr;
    for (bool inputs : {true, false})
      for (const ArgSpec &s : args) {
        if (s.read_only != inputs)
          continue;
        detail::check_arg(kernel, s);
        const at::Tensor &t = s.arg->tensor;
        if (!first)
          first = &s;
        TORCH_CHECK(t.device() == first->arg->tensor.device(), kernel, ": argument '", s.name,
                    "' is on ", t.device(), " but argument '", first->name, "' is on ",
                    first->arg->tensor.device(),
                    "; all tensors of one launch must be on one device");
      }
    for (const ArgSpec &s : args)
      data_.push_back(s.arg->tensor.data_ptr());
    TORCH_CHECK(first, kernel,
                ": a tensor launch needs at least one tensor argument (its device "
                "and stream); call the pointer launcher instead");
    c10::Device device = first->arg->tensor.device();
#if TILEC_TORCH_CUDA
    guard_.emplace(device);
    stream_ = c10::cuda::getCurrentCUDAStream(device.index()).stream();
#else
    TORCH_CHECK(false, kernel, ": cannot launch on ", device,
                ": this program was built without LibTorch's CUDA part (TILEC_TORCH_CUDA=0)");
#endif
  }

  /// The current stream of the tensors' device.
  tilec::Stream stream() const { return stream_; }
  /// The data pointer of the i-th tensor argument.
  template <class T> T *data(size_t i) const { return static_cast<T *>(data_[i]); }

private:
  c10::SmallVector<void *, 8> data_; // no allocation for up to 8 tensors
  tilec::Stream stream_ = nullptr;
#if TILEC_TORCH_CUDA
  std::optional<c10::cuda::CUDAGuard> guard_;
#endif
};

} // namespace tilec::torch
