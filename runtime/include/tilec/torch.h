// tilec/torch.h - launch tilec kernels on PyTorch tensors.
//
// Include it before a launcher header: every launcher `k(grid, stream, ptrs..., scalars...)`
// then also has an overload `k(grid, tensors..., scalars...)` (and `k_autotuned` alike) that
// takes an at::Tensor (or tilec::torch::rows / strided of one) for each pointer parameter:
//
//   #include <tilec/torch.h>
//   #include "softmax.tilec.h"
//   at::Tensor y = at::empty_like(x);
//   softmax_kernel<1024>(tilec::Grid{uint32_t(x.size(0))}, y, x, x.stride(0), y.stride(0),
//                        int(x.size(1)));
//
// Before anything runs, each tensor is checked, in parameter order: defined, on a CUDA
// device, of the kernel's element type, contiguous (or as rows()/strided() allow), and all of
// one launch on one device. A violation throws c10::Error (Python: RuntimeError; a wrong
// element type is c10::TypeError, Python's TypeError) naming the kernel, the parameter and
// what was expected. The launch then runs under a device guard on
// at::cuda::getCurrentCUDAStream() of that device.
//
// CUDA support needs LibTorch built with CUDA and c10_cuda linked; TILEC_TORCH_CUDA=0 (set by
// the build for a CPU-only LibTorch) keeps the checks and refuses to launch.
#pragma once

#define TILEC_TORCH_ADAPTER 1

#include <tilec/runtime.h>
#include <tilec/torch/launch.h>
#include <tilec/torch/tensor_arg.h>
