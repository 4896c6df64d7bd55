#!/usr/bin/env bash
# sass_summary.sh - the instruction mix, registers and spills of the matmul example's kernel
# (tutorial 03 as written) at the benchmark's configurations, compiled with nvcc from the
# generated CUDA (.gen):
#   bench/sass_summary.sh [GEN dir] [output dir]
# Prints one line per instantiation: HGMMA (Hopper warpgroup tensor core, wgmma), HMMA
# (mma.sync), UTMALDG and UTMASTG (copy-engine loads and stores), LDGSTS (cp.async), SYNCS (mbarrier waits and
# arrivals), BAR (block barriers), and the registers each warpgroup role asks for with
# setmaxnreg (USETMAXREG: the producer's and the consumers' counts; none without a producer
# warpgroup); then registers, spill bytes and shared memory from ptxas.
# SASS_DUMP overrides the disassembler (default: cuobjdump -sass <cubin>).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GEN=$(cd "${1:-$ROOT/.gen}" && pwd)
OUT=${2:-$ROOT/out}
mkdir -p "$OUT"
src=$OUT/matmul_sass.cu
# DIV16 0x200001ff: every pointer 16-byte aligned, every integer divisible by 16, and (bit 29)
# every tensor map encoded: the specialization the benchmarks launch.
params="const __half *, const __half *, __half *, int, int, int, int, int, int,
  const __grid_constant__ tilec::TmaMap, const __grid_constant__ tilec::TmaMap,
  const __grid_constant__ tilec::TmaMap, const unsigned,
  const int"
{
  echo "#include \"$GEN/matmul.cu\""
  for cfg in "128, 128, 64, 8, __half, false, 4, 3" "128, 128, 32, 8, __half, false, 4, 4" \
    "128, 256, 64, 8, __half, false, 8, 3" "256, 128, 64, 8, __half, false, 8, 3"; do
    echo "template __global__ void matmul<$cfg, 0x200001ffu>($params);"
  done
} >"$src"
nvcc -std=c++17 -cubin -gencode=arch=compute_90a,code=sm_90a -I "$ROOT/templates" \
  -Xptxas -v "$src" -o "$OUT/matmul_sass.cubin" 2>"$OUT/ptxas.log" || {
  tail -20 "$OUT/ptxas.log" >&2
  exit 1
}
${SASS_DUMP:-cuobjdump -sass} "$OUT/matmul_sass.cubin" >"$OUT/matmul.sass"
awk 'function hex(v,   i, d, n) { n = 0; v = tolower(v); sub(/^0x/, "", v)
       for (i = 1; i <= length(v); i++) { d = index("0123456789abcdef", substr(v, i, 1)) - 1; n = n * 16 + d }
       return n }
     /Function : /{name=$3; seen[name]=1}
     /^\/\/-+ \.text\./{name=$2; sub(/^\.text\./, "", name); seen[name]=1}
     /[ \t]HGMMA/{w[name]++} /[ \t]HMMA/{h[name]++} /UTMALDG/{t[name]++} /UTMASTG/{st[name]++} /LDGSTS/{g[name]++}
     /SYNCS/{s[name]++} /BAR\.SYNC/{b[name]++}
     /USETMAXREG/{if (match($0, /0x[0-9a-fA-F]+/)) r[name] = r[name] (r[name] == "" ? "" : "/") hex(substr($0, RSTART, RLENGTH))}
     END{for (n in seen) printf "%s HGMMA=%d HMMA=%d UTMALDG=%d UTMASTG=%d LDGSTS=%d SYNCS=%d BAR=%d setmaxnreg=%s\n",
         n, w[n], h[n], t[n], st[n], g[n], s[n], b[n], (r[n] == "" ? "-" : r[n])}' \
  "$OUT/matmul.sass"
grep -E "registers|spill" "$OUT/ptxas.log"
