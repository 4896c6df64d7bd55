#!/usr/bin/env bash
# spills_summary.sh - registers, spill bytes and shared memory (ptxas -v, sm_90a) of the
# attention forward and the spelled matmuls at their benchmark configurations, and of the
# attention example's kernels (fused_attention.cu) at their autotuning configs (fp16, no
# window), compiled with nvcc from the generated CUDA (.gen):
#   bench/spills_summary.sh [GEN dir] [output dir]
# Prints one line per instantiation: the kernel's mangled name, then what ptxas reports.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$(cd "${1:-$ROOT/.gen}" && pwd)
OUT=${2:-$ROOT/out}
mkdir -p "$OUT"
src=$OUT/spills.cu
# DIV16 with every bit set: every pointer 16-byte aligned and every integer divisible by 16.
{
  echo "#include \"$GEN/attention_fwd.cu\""
  echo "#include \"$GEN/matmul_spellings.cu\""
  for d in 64 128; do
    for causal in false true; do
      for cfg in "128, 64, $d, $causal, __half, 4, 3" "128, 64, $d, $causal, __half, 8, 3" \
        "128, 64, $d, $causal, __half, 8, 2" "64, 64, $d, $causal, __half, 4, 3"; do
        echo "template __global__ void attention_fwd<$cfg, 0xffffffffu>(const __half *,"
        echo "    const __half *, const __half *, __half *, float *, float, int);"
      done
    done
  done
  for k in matmul_offsets linear_nt; do
    for cfg in "128, 128, 64, 8, __half, 4, 3" "128, 256, 64, 8, __half, 8, 3"; do
      echo "template __global__ void $k<$cfg, 0xffffffffu>(const __half *, const __half *,"
      echo "    __half *, int, int, int, int, int, int);"
    done
  done
  echo "template __global__ void int8_gemm<128, 128, 128, 8, 4, 3, 0xffffffffu>("
  echo "    const int8_t *, const int8_t *, int *, int, int, int, int, int, int);"
  if [[ -f $GEN/fused_attention.cu ]]; then
    echo "#include \"$GEN/fused_attention.cu\""
    local_args="const __half *, const __half *, const __half *"
    for d in 64 128; do
      for causal in false true; do
        for cfg in "128, 64, 4, 2" "128, 64, 4, 3" "128, 64, 8, 2" "128, 64, 8, 3" "64, 64, 4, 2" \
          "64, 64, 4, 3"; do
          set -- $cfg
          echo "template __global__ void attn_fwd<$1 $2 $d, $causal, false, __half, $3 $4, 0xffffffffu>("
          echo "    $local_args, __half *, float *, float, int, int, int, int);"
        done
        for cfg in "32, 128, 4, 2" "32, 128, 8, 3" "64, 128, 8, 2" "32, 64, 4, 3" "32, 64, 8, 3" \
          "64, 64, 4, 2" "64, 64, 8, 2" "128, 128, 8, 2"; do
          set -- $cfg
          echo "template __global__ void attn_bwd_dkdv<$1 $2 $d, $causal, false, __half, $3 $4,"
          echo "    0xffffffffu>($local_args, const __half *, const float *, const float *,"
          echo "    __half *, __half *, float, int, int, int, int);"
        done
        for cfg in "128, 32, 4, 2" "128, 32, 8, 3" "128, 64, 8, 2" "64, 32, 4, 3" "64, 64, 4, 2" \
          "128, 128, 8, 2"; do
          set -- $cfg
          echo "template __global__ void attn_bwd_dq<$1 $2 $d, $causal, false, __half, $3 $4,"
          echo "    0xffffffffu>($local_args, const __half *, const float *, const float *,"
          echo "    __half *, float, int, int, int, int);"
        done
      done
    done
  fi
} >"$src"
nvcc -std=c++17 -cubin -gencode=arch=compute_90a,code=sm_90a -I "$ROOT/templates" \
  -Xptxas -v "$src" -o "$OUT/spills.cubin" 2>"$OUT/spills_ptxas.log"
awk '/Compiling entry function/{match($0, /\047[^\047]+\047/); name=substr($0, RSTART + 1, RLENGTH - 2)}
     /Used [0-9]+ registers/{regs[name]=$5}
     /spill stores/{spills[name]=$5; order[++n]=name}
     END{for (i = 1; i <= n; ++i) print order[i], regs[order[i]], "registers", spills[order[i]], "spill bytes"}' \
  "$OUT/spills_ptxas.log" | { command -v cu++filt >/dev/null && cu++filt || cat; } |
  sed -E 's/\(.*\)//; s/, 4294967295u?>/>/'
