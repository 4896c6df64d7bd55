#!/usr/bin/env bash
set -u
ROOT=$(pwd)
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DTILEC_BUILD_TRANSLATOR=OFF \
  -DTILEC_PREGENERATED_DIR=$ROOT/.gen -DTILEC_BUILD_BENCH=ON > $OUT/configure.log 2>&1 || { tail -30 $OUT/configure.log; exit 1; }
ninja -C /tmp/b corpus_gpu_tests bench_corpus gpu_runtime_tests > $OUT/build.log 2>&1 || { grep -m20 -B2 -A10 "error" $OUT/build.log | head -60; exit 1; }
echo built
export TILEC_CACHE_DIR=/tmp/cache_am
/tmp/b/tests/corpus/corpus_gpu_tests --gtest_filter='*rgmax*' > $OUT/corpus_tests.log 2>&1; echo "corpus argmax tests rc=$?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/corpus_tests.log | head
/tmp/b/tests/gpu/gpu_runtime_tests --gtest_filter='GpuBlockPtr*' > $OUT/gpu_tests.log 2>&1; echo "block ptr tests rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/gpu_tests.log
cd bench
BENCH_CORPUS_ONLY=argmax timeout 120 /tmp/b/bench/bench_corpus > $OUT/corpus.jsonl 2> $OUT/corpus.err; echo "bench rc=$?"; tail -2 $OUT/corpus.err
(cd peers && BENCH_CORPUS_ONLY=argmax timeout 150 python3 corpus.py > $OUT/peers.jsonl 2> $OUT/peers.err; echo "peers rc=$?"; tail -2 $OUT/peers.err)
python3 - <<'PY'
import json, os
rows=[]
for f in ("corpus.jsonl", "peers.jsonl"):
    p=os.environ["OUT"]+"/"+f
    if os.path.exists(p):
        rows+=[json.loads(l) for l in open(p) if l.startswith("{")]
rows.sort(key=lambda r: (r.get("name",""), r.get("provider","")))
for r in rows:
    print(f'{r.get("name","")[:40]:40s} {r.get("provider","")[:20]:20s} {r.get("value",0):8.1f} {r.get("unit","")} {r.get("note","")[:40]}')
PY
