#!/usr/bin/env bash
# ab_ports.sh - before / after on the GPU machine without building there: two bench_ports
# binaries built on a machine with the CUDA toolkit (no GPU needed; the kernels compile with
# NVRTC where they run), carried over, each run ROUNDS times in turn on the kernels named by
# BENCH_PORTS_ONLY (all when unset), then Triton's originals (bench/peers/ports.py) on the same
# kernels. Prints one row per benchmark: each build's median, after / before, and Triton.
#
#   bench/ab_ports.sh BEFORE AFTER [ROUNDS]       (ROUNDS: 2 by default)
#
# Each build gets its own empty NVRTC cache, so the first round compiles as a user's first run
# does. TRITON=0 skips Triton. Results go to $OUT (default ./out): before_<round>.jsonl,
# after_<round>.jsonl, triton.jsonl and ab.md.
set -uo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 BEFORE AFTER [ROUNDS]" >&2
  exit 2
fi
before=$1 after=$2 rounds=${3:-2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=${CUDA_HOME:-/usr/local/cuda}/lib64:${LD_LIBRARY_PATH:-}
cache=$(mktemp -d)
for ((i = 1; i <= rounds; i++)); do
  for side in before after; do
    bin=$before
    [[ $side == after ]] && bin=$after
    TILEC_CACHE_DIR=$cache/$side "$bin" >"$OUT/${side}_$i.jsonl" 2>>"$OUT/ab_stderr.txt" ||
      echo "ab_ports: $side (round $i) exited with $?" | tee -a "$OUT/ab_stderr.txt"
  done
done
rm -rf "$cache"
if [[ ${TRITON:-1} != 0 ]]; then
  PYTHONUNBUFFERED=1 python3 "$ROOT/bench/peers/ports.py" >"$OUT/triton.jsonl" \
    2>>"$OUT/ab_stderr.txt" || echo "ab_ports: ports.py exited with $?"
fi
python3 - "$OUT" "$rounds" <<'EOF' | tee "$OUT/ab.md"
import json, os, statistics, sys

out, rounds = sys.argv[1], int(sys.argv[2])

def values(path, provider):
    found = {}
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("{"):
                row = json.loads(line)
                if row.get("provider") == provider:
                    found[row["name"]] = (row["value"], row["unit"])
    return found

sides = {s: [values(f"{out}/{s}_{i}.jsonl", "tilec") for i in range(1, rounds + 1)]
         for s in ("before", "after")}
triton = values(f"{out}/triton.jsonl", "triton")
print("| benchmark | before | after | after / before | Triton | after / Triton |")
print("|---|---|---|---|---|---|")
for name in sides["before"][0]:
    med = {}
    for s in sides:
        got = [run[name][0] for run in sides[s] if name in run]
        med[s] = statistics.median(got) if got else None
    if med["before"] is None or med["after"] is None:
        continue
    unit = sides["before"][0][name][1]
    faster = (lambda a, b: a / b) if unit.endswith("/s") else (lambda a, b: b / a)
    t = triton.get(name, (None,))[0]
    t_cols = f"{t:.4g} | {faster(med['after'], t):.3f}x" if t else "- | -"
    print(f"| {name} | {med['before']:.4g} | {med['after']:.4g} | "
          f"{faster(med['after'], med['before']):.3f}x | {t_cols} |")
EOF
