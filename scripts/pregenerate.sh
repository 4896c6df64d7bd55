#!/usr/bin/env bash
# pregenerate.sh <tilec-binary> <out-dir>
#
# Translates every kernel source the build needs into one flat folder, for machines that
# build with -DTILEC_BUILD_TRANSLATOR=OFF -DTILEC_PREGENERATED_DIR=<out-dir> (no libclang).
# Writes <stem>.cu and <stem>.tilec.h per source, plus <stem>.aot.cu where AOT specs are given.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <tilec-binary> <out-dir>" >&2
  exit 2
fi
tilec=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)

# One line per kernel source (relative to the repository root), optionally followed by the
# ahead-of-time specializations its MODE nvcc targets list in SPECIALIZE (same spelling).
# Stems must be unique: the folder is flat.
KERNELS=(
  'examples/vector_add/vector_add.cpp add_kernel<1024>:4:3 add_kernel_t<tl::half,2048>:8:3'
  'examples/softmax/softmax.cpp'
  'examples/layer_norm/layer_norm.cpp'
  'examples/dropout/dropout.cpp'
  'examples/matmul/matmul.cpp'
  'examples/batched_matmul/batched_matmul.cpp'
  'examples/grouped_gemm/grouped_gemm.cpp'
  'examples/attention/fused_attention.cpp'
  'examples/torch/nn_kernels.cpp'
)
# Kernel sources of tests that launch on a GPU and of the benchmarks (bench/kernels/): every
# .cpp under these folders, subfolders included, that defines a TILEC_KERNEL is translated as
# well (a host program there must not mention that word).
KERNEL_DIRS=(tests/gpu tests/runtime tests/torch tests/corpus bench)

mkdir -p "$out"

translate() { # <source> [aot specs...]
  local src=$1
  shift
  local args=()
  for spec in "$@"; do args+=("--aot=$spec"); done
  echo "tilec: $src ${args[*]}"
  "$tilec" -o "$out" "${args[@]}" "$root/$src"
}

declare -A seen=()
for line in "${KERNELS[@]}"; do
  read -r -a words <<<"$line"
  translate "${words[@]}"
  seen[${words[0]}]=1
done
for dir in "${KERNEL_DIRS[@]}"; do
  [[ -d $root/$dir ]] || continue
  while IFS= read -r src; do
    rel=${src#"$root"/}
    [[ -n ${seen[$rel]:-} ]] || translate "$rel"
  done < <(grep -rl --include='*.cpp' 'TILEC_KERNEL' "$root/$dir" | sort)
done
echo "generated sources are in $out"
