#!/usr/bin/env bash
# Device probe: build with the pregenerated sources, GPU tests, block-pointer and strided spellings.
set -u
ROOT=$(pwd)
mkdir -p $OUT
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILEC_BUILD_TRANSLATOR=OFF \
  -DTILEC_PREGENERATED_DIR=$ROOT/.gen -DTILEC_BUILD_BENCH=ON > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
ninja -C /tmp/b gpu_runtime_tests bench_spellings > $OUT/build.log 2>&1 || { grep -m20 -B2 -A10 "error" $OUT/build.log | head -80; exit 1; }
echo "built"
export TILEC_CACHE_DIR=/tmp/cache_main
/tmp/b/tests/gpu/gpu_runtime_tests --gtest_filter='GpuBlockPtr*:GpuDescriptor*:GpuDot*' > $OUT/gpu_tests.log 2>&1; echo "gpu tests rc=$?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head -20
if [ -n "${RACECHECK:-}" ]; then compute-sanitizer --tool racecheck /tmp/b/tests/gpu/gpu_runtime_tests --gtest_filter='GpuBlockPtr.TritonBlockPointerMatmul' > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|hazard" $OUT/racecheck.log | head -3; fi
cd bench
BENCH_ONLY=matmul BENCH_SPELLINGS=${SPELLINGS:-matmul,matmul_strided,matmul_block_ptr} timeout 420 /tmp/b/bench/bench_spellings > $OUT/spellings.jsonl 2> $OUT/spellings.err; echo "bench rc=$?"
tail -3 $OUT/spellings.err
if [ -n "${PEERS:-}" ]; then (cd peers && BENCH_ONLY=$PEERS timeout 200 python3 spellings.py > $OUT/peers.jsonl 2> $OUT/peers.err; echo "peers rc=$?"; tail -2 $OUT/peers.err); fi
python3 - <<'PY'
import json, os
rows=[]
for f in ("spellings.jsonl", "peers.jsonl"):
    p=os.environ["OUT"]+"/"+f
    if os.path.exists(p):
        rows+=[json.loads(l) for l in open(p) if l.startswith("{")]
rows.sort(key=lambda r: (r.get("name",""), r.get("provider","")))
for r in rows:
    print(f'{r.get("name","")[:36]:36s} {r.get("provider","")[:44]:44s} {r.get("value",0):8.1f} {r.get("note","")[:40]}')
PY
