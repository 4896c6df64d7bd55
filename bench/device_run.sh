#!/usr/bin/env bash
# device_run.sh - the one command for the GPU machine (no libclang there): build from the
# pre-generated sources in .gen (scripts/pregenerate.sh, run where the translator is), run
# the GPU/runtime/interpreter tests, compute-sanitizer on the example, both benchmarks, and
# print the comparison table last. Every log goes under $OUT (default ./out). A failing
# step is reported and the rest still run. PARTS=tests or PARTS=bench runs only the tests (with
# the sanitizers) or only the benchmarks, for when one run must fit a shorter time limit.
# PARTS=torch builds only the PyTorch extension and its tests (examples/torch, tests/torch),
# runs them, the training comparison, the cpp_extension.load recipe and the per-call
# benchmark, and prints that benchmark's table last; PARTS=all includes it.
# PARTS=corpus builds and runs only the corpus (tests/corpus): its interpreter and GPU tests,
# bench_corpus and bench_ports and their Triton peers (bench/peers/corpus.py, ports.py), and
# prints their ratio table last.
# PARTS=matmul builds and runs only the matmul families: bench_spellings with
# BENCH_ONLY=matmul,fp8 (every spelling, autotuned), its peers (cuBLAS, Triton's tutorials 03
# and 09, torch._scaled_mm: peers/spellings.py, peers/matmul_descriptor.py) and
# sass_summary.sh (the example's instruction mix, registers and spills), and prints their
# table last (about 5 minutes).
# PARTS=attention builds and runs only the attention example (examples/attention): its tests,
# memcheck and racecheck on its small-block checks, bench_attention and its peers (SDPA
# backends, Triton's tutorial 06: bench/peers/attention.py), and prints their table last;
# PARTS=all leaves it out (its benchmarks alone take several minutes). BENCH_ATTENTION_N (e.g.
# 1024,4096) limits the sequence lengths and ATTENTION_TESTS=0 skips the tests and sanitizers,
# to split the part over two calls.
set -uo pipefail
PARTS=${PARTS:-all}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/out}
BUILD=${BUILD:-$ROOT/build-device}
GEN=${GEN:-$ROOT/.gen}
mkdir -p "$OUT"
export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
export TILEC_CACHE_DIR=${TILEC_CACHE_DIR:-$BUILD/tilec_cache}

declare -a SUMMARY=()
step() { # <name> <log file> <command...>: runs the command, appends its output to the log
  local name=$1 log=$2
  shift 2
  echo "==== $name" | tee -a "$log"
  local t0=$SECONDS
  "$@" >>"$log" 2>&1
  local rc=$?
  local verdict=ok
  ((rc == 0)) || verdict="FAILED (exit $rc, see $(basename "$log"))"
  SUMMARY+=("$(printf '%-28s %-8s %s' "$name" "$((SECONDS - t0))s" "$verdict")")
  echo "     $verdict" | tee -a "$log"
  return $rc
}

{ nvidia-smi -L; nvcc --version | tail -1; cmake --version | head -1; } >"$OUT/build.log" 2>&1
if [[ ! -f $GEN/vector_add.cu ]]; then
  echo "device_run: $GEN has no generated sources; run scripts/pregenerate.sh where the" \
    "translator is built and carry .gen" | tee -a "$OUT/build.log"
fi
configure() {
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTILEC_BUILD_TRANSLATOR=OFF -DTILEC_PREGENERATED_DIR="$GEN" -DTILEC_BUILD_BENCH=ON "$@"
}
# GoogleTest may be missing there: fall back to a build without the gtest-based tests.
step "configure" "$OUT/build.log" configure ||
  step "configure (no gtest tests)" "$OUT/build.log" configure -DTILEC_BUILD_TESTS=OFF
# -k 0: a target that fails to build does not stop the others.
if [[ $PARTS == torch ]]; then
  # The extension alone first: its tests are gtest programs, absent when GoogleTest is.
  step "build (torch)" "$OUT/build.log" cmake --build "$BUILD" -j "$(nproc)" --target tilec_nn
  step "build (torch tests)" "$OUT/build.log" cmake --build "$BUILD" -j "$(nproc)" \
    --target torch_adapter_tests torch_nn_kernels_tests -- -k 0
elif [[ $PARTS == attention ]]; then
  step "build (attention)" "$OUT/build.log" cmake --build "$BUILD" -j "$(nproc)" --target \
    attention bench_attention -- -k 0
elif [[ $PARTS == matmul ]]; then
  step "build (matmul)" "$OUT/build.log" cmake --build "$BUILD" -j "$(nproc)" --target \
    bench_spellings -- -k 0
elif [[ $PARTS == corpus ]]; then
  step "build (corpus)" "$OUT/build.log" cmake --build "$BUILD" -j "$(nproc)" --target \
    tilec_corpus_interpreter_tests corpus_gpu_tests bench_corpus bench_ports -- -k 0
else
  step "build" "$OUT/build.log" cmake --build "$BUILD" -j "$(nproc)" -- -k 0
fi

run_corpus() {
  step "ctest corpus" "$OUT/corpus_tests.log" \
    ctest --test-dir "$BUILD" -R 'corpus' -E 'nvrtc' --output-on-failure
  step "bench corpus tilec" "$OUT/corpus_bench.log" \
    sh -c '"$0" >"$1"' "$BUILD/bench/bench_corpus" "$OUT/corpus_tilec.jsonl"
  step "bench corpus triton" "$OUT/corpus_bench.log" \
    env PYTHONUNBUFFERED=1 sh -c 'python3 "$0" >"$1"' "$ROOT/bench/peers/corpus.py" \
    "$OUT/corpus_triton.jsonl"
  step "bench ports tilec" "$OUT/corpus_bench.log" \
    sh -c '"$0" >"$1"' "$BUILD/bench/bench_ports" "$OUT/ports_tilec.jsonl"
  step "bench ports triton" "$OUT/corpus_bench.log" \
    env PYTHONUNBUFFERED=1 sh -c 'python3 "$0" >"$1"' "$ROOT/bench/peers/ports.py" \
    "$OUT/ports_triton.jsonl"
  python3 "$ROOT/bench/report.py" --ratio "$OUT/corpus_tilec.jsonl" "$OUT/corpus_triton.jsonl" \
    "$OUT/ports_tilec.jsonl" "$OUT/ports_triton.jsonl" \
    >"$OUT/corpus_report.md" 2>>"$OUT/corpus_bench.log"
  # The ports next to torch as well, where one torch call does the same work.
  python3 "$ROOT/bench/report.py" "$OUT/ports_tilec.jsonl" "$OUT/ports_triton.jsonl" \
    >"$OUT/ports_report.md" 2>>"$OUT/corpus_bench.log"
  echo
  echo "==== steps"
  printf '%s\n' "${SUMMARY[@]}" | tee "$OUT/steps.txt"
  echo
  cat "$OUT/corpus_report.md"
}
if [[ $PARTS == corpus ]]; then
  run_corpus
  exit 0
fi

run_matmul() {
  step "bench matmul tilec" "$OUT/matmul_bench.log" \
    env BENCH_ONLY=matmul,fp8 sh -c '"$0" >"$1"' "$BUILD/bench/bench_spellings" \
    "$OUT/matmul_tilec.jsonl"
  step "bench matmul peers" "$OUT/matmul_bench.log" \
    env BENCH_ONLY=matmul,fp8 PYTHONUNBUFFERED=1 sh -c \
    'python3 "$0" >"$2" && python3 "$1" >>"$2"' "$ROOT/bench/peers/spellings.py" \
    "$ROOT/bench/peers/matmul_descriptor.py" "$OUT/matmul_peers.jsonl"
  step "sass summary" "$OUT/matmul_sass.txt" "$ROOT/bench/sass_summary.sh" "$GEN" "$OUT/sass"
  python3 "$ROOT/bench/report.py" "$OUT/matmul_tilec.jsonl" "$OUT/matmul_peers.jsonl" \
    >"$OUT/matmul_report.md" 2>>"$OUT/matmul_bench.log"
  echo
  echo "==== steps"
  printf '%s\n' "${SUMMARY[@]}" | tee "$OUT/steps.txt"
  echo
  cat "$OUT/matmul_sass.txt"
  cat "$OUT/matmul_report.md"
}
if [[ $PARTS == matmul ]]; then
  run_matmul
  exit 0
fi

run_attention() {
  if [[ ${ATTENTION_TESTS:-1} != 0 ]]; then
    step "ctest attention" "$OUT/attention_tests.log" \
      ctest --test-dir "$BUILD" -R 'attention' -E 'nvrtc' --output-on-failure
    local ex=$BUILD/examples/attention/attention
    for tool in memcheck racecheck; do
      step "$tool attention" "$OUT/memcheck.log" timeout 300 \
        compute-sanitizer --tool $tool --error-exitcode 1 "$ex" --gpu --quick
    done
  fi
  step "bench attention tilec" "$OUT/attention_bench.log" \
    sh -c '"$0" >"$1"' "$BUILD/bench/bench_attention" "$OUT/attention_tilec.jsonl"
  step "bench attention peers" "$OUT/attention_bench.log" \
    env PYTHONUNBUFFERED=1 sh -c 'python3 "$0" >"$1"' "$ROOT/bench/peers/attention.py" \
    "$OUT/attention_peers.jsonl"
  python3 "$ROOT/bench/report.py" "$OUT/attention_tilec.jsonl" "$OUT/attention_peers.jsonl" \
    >"$OUT/attention_report.md" 2>>"$OUT/attention_bench.log"
  python3 "$ROOT/bench/plots.py" "$OUT/attention_tilec.jsonl" "$OUT/attention_peers.jsonl" \
    --out "$OUT" 2>>"$OUT/attention_bench.log"
  echo
  echo "==== steps"
  printf '%s\n' "${SUMMARY[@]}" | tee "$OUT/steps.txt"
  echo
  cat "$OUT/attention_report.md"
}
if [[ $PARTS == attention ]]; then
  run_attention
  exit 0
fi

run_tests() {
step "ctest gpu|runtime|interpreter" "$OUT/tests.log" \
  ctest --test-dir "$BUILD" -R 'gpu|runtime|interpreter' --output-on-failure

example=$BUILD/examples/vector_add
step "memcheck vector_add" "$OUT/memcheck.log" \
  compute-sanitizer --tool memcheck --error-exitcode 1 "$example/vector_add" --gpu --small
step "memcheck vector_add_aot" "$OUT/memcheck.log" \
  compute-sanitizer --tool memcheck --error-exitcode 1 "$example/vector_add_aot" --gpu --small \
  --expect-aot

# The rank-2, control-flow, dot, attention and device-library GPU tests exercise shared memory
# (reductions, layout conversions, scans, cp.async stage rings): check them for bad accesses
# and races.
gtests=$BUILD/tests/gpu/gpu_runtime_tests
filter='GpuRank2.*:GpuRank3.*:GpuControlFlow.*:GpuDot.*:GpuAttention.*:DeviceLibrary.Reduce*:DeviceLibrary.Scan*'
step "memcheck gpu tests" "$OUT/memcheck.log" \
  compute-sanitizer --tool memcheck --error-exitcode 1 "$gtests" --gtest_filter="$filter"
step "racecheck gpu tests" "$OUT/memcheck.log" \
  compute-sanitizer --tool racecheck --error-exitcode 1 "$gtests" --gtest_filter="$filter"
# The fused examples (block reductions through shared memory), bounded in time: their
# checks include large shapes, which the sanitizers slow down many times over.
for ex in softmax layer_norm; do
  for tool in memcheck racecheck; do
    step "$tool $ex" "$OUT/memcheck.log" timeout 90 \
      compute-sanitizer --tool $tool --error-exitcode 1 "$BUILD/examples/$ex/$ex" --gpu
  done
done

# The profiler (TILEC_PROFILE=1: GPU time per specialization, printed at exit) and the NVTX
# ranges around launches and compiles, as Nsight Compute reports them (--nvtx).
step "profile table (softmax)" "$OUT/profile.log" \
  env TILEC_PROFILE=1 timeout 120 "$BUILD/examples/softmax/softmax" --gpu
step "nvtx ranges (ncu)" "$OUT/profile.log" \
  timeout 120 ncu --nvtx -c 1 --section LaunchStats "$example/vector_add" --gpu --small

}
[[ $PARTS == bench || $PARTS == torch ]] || run_tests

# The PyTorch extension: bad inputs, kernels against torch, gradcheck, torch.compile
# (the torch.* tests of ctest), 200 training steps against eager in float32 and 50 in
# float64, then the per-call cost from Python next to torch and Triton.
run_torch() {
  # The Python the build found torch in (tilec_find_torch), as the ctest cases use.
  local python
  python=$(sed -n 's/^TILEC_TORCH_PYTHON_EXECUTABLE:INTERNAL=//p' "$BUILD/CMakeCache.txt")
  local py="env PYTHONUNBUFFERED=1 TILEC_NN_LIBRARY=$BUILD/examples/torch/tilec_nn.so ${python:-python3}"
  step "ctest torch" "$OUT/torch.log" \
    ctest --test-dir "$BUILD" -R '^torch\.' --output-on-failure --timeout 600
  step "train block fp32 200 steps" "$OUT/torch.log" timeout 600 \
    $py "$ROOT/examples/torch/train_block.py" --steps 200
  step "train block fp64 50 steps" "$OUT/torch.log" timeout 600 \
    $py "$ROOT/examples/torch/train_block.py" --steps 50 --dtype float64
  step "bench torch call overhead" "$OUT/torch.log" timeout 600 \
    $py "$ROOT/bench/torch_overhead.py"
  # The short table: the training verdicts, then the per-call figures.
  grep -E '^train_block: |largest relative' "$OUT/torch.log" >"$OUT/torch_table.md"
  grep -A6 '^softmax fp32 from Python' "$OUT/torch.log" >>"$OUT/torch_table.md"
}
[[ $PARTS == all || $PARTS == torch ]] && run_torch

bench_tilec() {
  "$BUILD/bench/bench_vector_add" >"$OUT/bench_tilec.jsonl"
  local rc=$?
  # Appended: one JSON-lines file per provider keeps $OUT's file count low.
  "$BUILD/bench/bench_softmax" >>"$OUT/bench_tilec.jsonl" || rc=1
  "$BUILD/bench/bench_layer_norm" >>"$OUT/bench_tilec.jsonl" || rc=1
  # Built once bench/CMakeLists.txt switches it on (the translator lowering tl::dot).
  if [[ -x $BUILD/bench/bench_matmul ]]; then
    "$BUILD/bench/bench_matmul" >>"$OUT/bench_tilec.jsonl" || rc=1
  fi
  # The first call of the autotuned matmul (compile + timing of its configs).
  if [[ -x $BUILD/bench/bench_autotune ]]; then
    "$BUILD/bench/bench_autotune" >>"$OUT/bench_tilec.jsonl" || rc=1
  fi
  # Kernels spelled as Triton's tutorials spell them (bench/kernels/): correctness checks, then
  # autotuned timings; its check messages go to the log.
  if [[ -x $BUILD/bench/bench_spellings ]]; then
    "$BUILD/bench/bench_spellings" >>"$OUT/bench_tilec.jsonl" || rc=1
  fi
  return $rc
}
bench_triton() {
  local py="env PYTHONUNBUFFERED=1 python3" rc=0
  $py "$ROOT/bench/triton_torch.py" >"$OUT/bench_triton_torch.jsonl" || rc=1
  $py "$ROOT/bench/peers/softmax.py" >>"$OUT/bench_triton_torch.jsonl" || rc=1
  $py "$ROOT/bench/peers/layer_norm.py" >>"$OUT/bench_triton_torch.jsonl" || rc=1
  $py "$ROOT/bench/peers/matmul.py" >>"$OUT/bench_triton_torch.jsonl" || rc=1
  $py "$ROOT/bench/peers/spellings.py" >>"$OUT/bench_triton_torch.jsonl" || rc=1
  $py "$ROOT/bench/peers/matmul_descriptor.py" >>"$OUT/bench_triton_torch.jsonl" || rc=1
  return $rc
}
if [[ $PARTS != tests && $PARTS != torch ]]; then
  step "bench tilec" "$OUT/bench.log" bench_tilec
  step "bench triton+torch" "$OUT/bench.log" bench_triton
  python3 "$ROOT/bench/report.py" "$OUT/bench_tilec.jsonl" "$OUT/bench_triton_torch.jsonl" \
    >"$OUT/report.md" 2>>"$OUT/bench.log"
  # results.csv and one PNG chart per kernel family (bench/results/ keeps the latest set).
  python3 "$ROOT/bench/plots.py" "$OUT/bench_tilec.jsonl" "$OUT/bench_triton_torch.jsonl" \
    --out "$OUT" 2>>"$OUT/bench.log"
fi

echo
echo "==== steps"
printf '%s\n' "${SUMMARY[@]}" | tee "$OUT/steps.txt"
echo
[[ -f $OUT/report.md ]] && cat "$OUT/report.md"
[[ -f $OUT/torch_table.md ]] && cat "$OUT/torch_table.md"
