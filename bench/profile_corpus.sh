#!/usr/bin/env bash
# profile_corpus.sh - Nsight Compute on corpus kernels, tilec's next to its Triton original,
# each at the first launch of its benchmark shape (BENCH_CORPUS_ONLY runs that family alone):
#   bench/profile_corpus.sh BUILD OUT family:tilec_kernel:triton_kernel:triton_checks ...
# triton_checks is how many launches of the Triton kernel bench/peers/corpus.py's checks make
# before its benchmark (skipped). For each family and side it writes the full ncu report
# (OUT/<side>_<family>_<tilec_kernel>.ncu-rep), its details page (.txt) and its SASS with
# per-instruction samples (.sass.csv; bench/sass_stats.py sums it up per opcode).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$1 OUT=$2
shift 2
mkdir -p "$OUT"
for spec in "$@"; do
  IFS=: read -r family tk pk skip <<<"$spec"
  for side in tilec triton; do
    if [[ $side == tilec ]]; then
      name=$tk n_skip=0 cmd=("$BUILD/bench/bench_corpus")
    else
      name=$pk n_skip=$skip cmd=(python3 "$ROOT/bench/peers/corpus.py")
    fi
    rep=$OUT/${side}_${family}_$tk
    BENCH_CORPUS_ONLY=$family timeout 300 ncu --set full --import-source yes -f -o "$rep" \
      -k "regex:^$name" --launch-skip "$n_skip" -c 1 "${cmd[@]}" >"$rep.log" 2>&1 ||
      echo "profile_corpus: $side $family failed (see $rep.log)"
    ncu -i "$rep.ncu-rep" --page details >"$rep.txt" 2>&1
    ncu -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1
    grep -E "^ +(Duration|Memory Throughput|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Executed Instructions|Local Memory Spilling|Block Limit Registers) " \
      "$rep.txt" | sed "s/^/$side $family $tk: /"
  done
done
