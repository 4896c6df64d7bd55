// empty_kernel.h - the launch-overhead floor: an empty kernel compiled by nvcc and launched
// with <<<>>> (cudaLaunchKernel), back to back.
#pragma once

#include <cuda_runtime.h>

void launch_empty_kernels(int count, cudaStream_t stream);
