#!/usr/bin/env bash
# sass_summary.sh - the instruction mix, registers and spills of the matmul kernel at the
# benchmark's best configuration, compiled with nvcc from the generated CUDA (.gen):
#   bench/sass_summary.sh [GEN dir] [output dir]
# Prints one line per instantiation: HGMMA (Hopper warpgroup tensor core, wgmma), HMMA
# (mma.sync), LDSM (ldmatrix), LDGSTS (cp.async), BAR (barriers), then registers, spill bytes
# and shared memory from ptxas.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$(cd "${1:-$ROOT/.gen}" && pwd)
OUT=${2:-$ROOT/out}
mkdir -p "$OUT"
src=$OUT/matmul_sass.cu
# DIV16 0x1ff: every pointer 16-byte aligned and every integer divisible by 16.
cat >"$src" <<CU
#include "$GEN/matmul.cu"
template __global__ void matmul<128, 128, 64, 8, __half, false, 4, 3, 0x1ffu>(
    const __half *, const __half *, __half *, int, int, int, int, int, int);
template __global__ void matmul<128, 128, 32, 8, __half, false, 4, 4, 0x1ffu>(
    const __half *, const __half *, __half *, int, int, int, int, int, int);
template __global__ void matmul<128, 256, 64, 8, __half, false, 8, 4, 0x1ffu>(
    const __half *, const __half *, __half *, int, int, int, int, int, int);
CU
nvcc -std=c++17 -cubin -gencode=arch=compute_90a,code=sm_90a -I "$ROOT/templates" \
  -Xptxas -v "$src" -o "$OUT/matmul_sass.cubin" 2>"$OUT/ptxas.log"
cuobjdump -sass "$OUT/matmul_sass.cubin" >"$OUT/matmul.sass"
awk '/Function : /{name=$3; seen[name]=1} /HGMMA/{w[name]++} / HMMA/{h[name]++} /LDSM/{l[name]++}
     /LDGSTS/{g[name]++} /BAR.SYNC/{b[name]++}
     END{for (n in seen) printf "%s HGMMA=%d HMMA=%d LDSM=%d LDGSTS=%d BAR=%d\n", n, w[n], h[n], l[n],
         g[n], b[n]}' \
  "$OUT/matmul.sass"
grep -E "registers|spill" "$OUT/ptxas.log"
