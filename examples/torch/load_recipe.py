"""Builds the tilec_nn operators with torch.utils.cpp_extension.load instead of CMake, then
checks one call against torch.softmax: the recipe of docs/torch.md, runnable.

  python3 load_recipe.py <tilec source dir> <folder with nn_kernels.tilec.h> <libtilec_runtime.a>
                        [<build folder>]

The launcher header comes from the translator (`tilec -o <folder> nn_kernels.cpp`, or a
build's tilec_gen/tilec_nn folder); the runtime from any tilec build or install.
"""
import os
import sys
import tempfile

import torch
from torch.utils.cpp_extension import CUDA_HOME, load


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        return 2
    root, gen_dir, runtime = (os.path.abspath(a) for a in sys.argv[1:4])
    build = sys.argv[4] if len(sys.argv) == 5 else tempfile.mkdtemp(prefix="tilec_nn_load_")
    os.makedirs(build, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    cuda_lib = os.path.join(CUDA_HOME or "/usr/local/cuda", "lib64")
    with_cuda = torch.version.cuda is not None  # a CPU-only torch builds the checks only
    load(
        name="tilec_nn_loaded",
        sources=[os.path.join(here, "nn_ops.cpp")],
        extra_include_paths=[gen_dir, os.path.join(root, "runtime", "include")],
        # C++20 for the launch options' designated initializers; the last -std wins.
        extra_cflags=["-O2", "-std=c++20", f"-DTILEC_TORCH_CUDA={int(with_cuda)}"],
        extra_ldflags=[runtime, f"-L{cuda_lib}", "-lnvrtc", "-ldl"],
        with_cuda=with_cuda,  # c10_cuda and the CUDA headers: launches use the current stream
        is_python_module=False,  # the operators register with TORCH_LIBRARY
        build_directory=build,
        verbose=False,
    )
    if not torch.cuda.is_available():
        try:
            torch.ops.tilec_nn.softmax_fwd(torch.ones(2, 3))
        except RuntimeError as e:
            assert "must be a CUDA tensor" in str(e), e
        print("load_recipe: built and loaded; CPU tensors refused (no CUDA device to run on)")
        return 0
    x = torch.randn(8, 300, device="cuda")
    torch.testing.assert_close(torch.ops.tilec_nn.softmax_fwd(x), torch.softmax(x, -1))
    print("load_recipe: built with torch.utils.cpp_extension.load, torch.ops.tilec_nn.softmax_fwd ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
