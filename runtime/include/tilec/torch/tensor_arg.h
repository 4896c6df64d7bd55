// tilec/torch/tensor_arg.h - a tensor passed for a kernel's pointer parameter, the layouts a
// kernel may take it in, and the element type each kernel type expects.
#pragma once

#include <tilec/types.h>

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <type_traits>

namespace tilec::torch {

/// How the kernel indexes a tensor's elements.
enum class Layout {
  Contiguous, ///< as one dense array: element i at data + i (the default)
  Rows,       ///< the last dimension is dense; the kernel takes the other strides as arguments
  Strided,    ///< the kernel takes every stride as an argument
};

/// What a tensor launcher takes for a pointer parameter: a tensor and the layout it must have.
/// Converts from at::Tensor (Layout::Contiguous); rows() and strided() give the others.
struct TensorArg {
  TensorArg(const at::Tensor &t) : tensor(t) {}
  TensorArg(const at::Tensor &t, Layout l) : tensor(t), layout(l) {}
  const at::Tensor &tensor;
  Layout layout = Layout::Contiguous;
};

/// For a kernel that takes the tensor's row strides (e.g. `x + row * stride + cols`): only the
/// last dimension must be dense.
inline TensorArg rows(const at::Tensor &t) { return {t, Layout::Rows}; }
/// For a kernel that takes every stride of the tensor.
inline TensorArg strided(const at::Tensor &t) { return {t, Layout::Strided}; }

/// The at::ScalarType of a kernel element type.
template <class T> constexpr c10::ScalarType scalar_type() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return c10::ScalarType::Bool;
  else if constexpr (std::is_same_v<U, int8_t>)
    return c10::ScalarType::Char;
  else if constexpr (std::is_same_v<U, uint8_t>)
    return c10::ScalarType::Byte;
  else if constexpr (std::is_same_v<U, int16_t>)
    return c10::ScalarType::Short;
  else if constexpr (std::is_same_v<U, int32_t>)
    return c10::ScalarType::Int;
  else if constexpr (std::is_same_v<U, int64_t>)
    return c10::ScalarType::Long;
  else if constexpr (std::is_same_v<U, float>)
    return c10::ScalarType::Float;
  else if constexpr (std::is_same_v<U, double>)
    return c10::ScalarType::Double;
  else if constexpr (std::is_same_v<U, tl::half>)
    return c10::ScalarType::Half;
  else if constexpr (std::is_same_v<U, tl::bfloat16>)
    return c10::ScalarType::BFloat16;
#if __has_include(<c10/util/Float8_e4m3fn.h>) // PyTorch 2.1 and newer
  else if constexpr (std::is_same_v<U, tl::float8_e4m3>)
    return c10::ScalarType::Float8_e4m3fn;
  else if constexpr (std::is_same_v<U, tl::float8_e5m2>)
    return c10::ScalarType::Float8_e5m2;
#endif
  else
    static_assert(sizeof(U) == 0, "tilec/torch.h: this element type has no at::ScalarType "
                                  "(unsigned 16/32/64-bit and, before PyTorch 2.1, fp8)");
}

/// One pointer argument of a launch as the tensor launcher describes it: the tensor, the
/// element type the kernel expects (with its C++ spelling, for messages) and the
/// parameter's name.
struct ArgSpec {
  const TensorArg *arg;
  c10::ScalarType type;
  bool read_only; ///< a `const T*` parameter
  const char *name;
};

template <class T> ArgSpec arg(const TensorArg &a, const char *name) {
  return {&a, scalar_type<T>(), std::is_const_v<T>, name};
}

} // namespace tilec::torch
