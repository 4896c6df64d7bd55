"""Runs tilec over the robustness corpus and fails on any crash, hang or accepted-but-broken
output (ctest robustness.corpus).

The corpus: mechanical mutants of the repository's kernels (mutate.py, fixed seed) and the
hand-written inputs of hand/, each of which names its expected outcome in a first-line comment:
  // EXPECT: error <regular expression over stderr>
  // EXPECT: accepted
For every input, tilec must either exit non-zero with a located error (file:line:col: error:)
or exit 0 with CUDA that NVRTC compiles for sm_90a and for sm_80 and a launcher header that the
host compiler accepts. Rejected inputs cost one parse; accepted ones a second run for sm_80 and
one host compile for all headers together.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import time

import mutate

LOCATED = re.compile(r"^[^\n:]+:\d+:\d+: (?:fatal )?error: ", re.M)
# What a crash or an internal failure prints even when the status looks clean.
UNCLEAN = re.compile(r"PLEASE submit a bug report|Stack dump:|LLVM ERROR|Assertion .* failed|"
                     r"internal error|runtime error:|AddressSanitizer")
NVRTC_FAILED = "NVRTC failed"


def run_tilec(args, inp, out, arch, check_nvrtc=True):
    check = ["--check"] if check_nvrtc else []
    cmd = [args.tilec, inp, "-o", out] + check + ["--arch=" + arch] + args.extra
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return "hang", "no answer in %d s" % args.timeout
    except OSError as e:
        return "crash", "could not run tilec: %s" % e
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return "crash", "signal %d\n%s" % (-p.returncode, err[-2000:])
    if UNCLEAN.search(err):
        return "crash", err[-2000:]
    if p.returncode == 0:
        if not glob.glob(os.path.join(out, "*.tilec.h")):
            return "broken", "exit 0 but no launcher header written"
        return "accepted", err
    if NVRTC_FAILED in err:
        return "broken", err[-3000:]
    if not LOCATED.search(err):
        return "unlocated", err[-2000:]
    return "rejected", err


def expectation(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        first = f.readline()
    m = re.match(r"//\s*EXPECT:\s*(error|accepted)\s*(.*)", first)
    if not m:
        raise SystemExit("%s: the first line must be '// EXPECT: error <regex>' or "
                         "'// EXPECT: accepted'" % path)
    return m.group(1), m.group(2).strip()


def check_input(args, name, inp, expect):
    out = os.path.join(args.work, "out", name)
    # --translate-only: the mutants without NVRTC; hand-written inputs keep it (some expect
    # errors that only --check gives).
    nvrtc = not args.translate_only or expect is not None
    start = time.monotonic()
    kind, detail = run_tilec(args, inp, out, "sm_90a", nvrtc)
    if kind == "accepted":
        k80, d80 = run_tilec(args, inp, os.path.join(args.work, "out80", name), "sm_80", nvrtc)
        if k80 not in ("accepted", "rejected"):  # a located refusal for sm_80 (fp8) is fine
            kind, detail = k80, "for sm_80: " + d80
    problem = None
    if kind in ("crash", "hang", "broken", "unlocated"):
        problem = kind
    elif expect is not None:
        want, regex = expect
        got = "accepted" if kind == "accepted" else "error"
        if got != want:
            problem = "expected %s, got %s" % (want, got)
        elif want == "error" and regex and not re.search(regex, detail):
            problem = "stderr does not match '%s'" % regex
    return name, kind, problem, detail, out, time.monotonic() - start


def headers_compile(args, outs):
    """Compiles every accepted launcher header in one translation unit; on failure, each alone
    to name the broken ones."""
    def compile_tu(headers, tu):
        # Launchers are named after their kernels, and mutants share kernel names: each header
        # goes into a namespace of its own, after the runtime headers they all include.
        with open(tu, "w") as f:
            f.write("#include <tilec/runtime.h>\n#include <tilec/autotune.h>\n")
            f.writelines('namespace corpus_%d {\n#include "%s"\n}\n' % (i, h)
                         for i, h in enumerate(headers))
        p = subprocess.run([args.cxx, "-std=c++20", "-fsyntax-only", "-I", args.include, tu],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return p.returncode == 0, p.stdout.decode("utf-8", "replace")
    headers = {name: sorted(glob.glob(os.path.join(out, "*.tilec.h"))) for name, out in outs}
    ok, _ = compile_tu([h for hs in headers.values() for h in hs],
                       os.path.join(args.work, "all_headers.cpp"))
    if ok:
        return []
    bad = []
    for name, hs in headers.items():
        ok, log = compile_tu(hs, os.path.join(args.work, "header_%s.cpp" % name))
        if not ok:
            bad.append((name, log[-3000:]))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilec", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True, help="the runtime's include folder")
    ap.add_argument("--work", required=True)
    ap.add_argument("--hand", required=True, help="folder of hand-written inputs")
    ap.add_argument("--seeds", nargs="+", required=True, help="kernel files to mutate")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--extra", nargs="*", default=[], help="more tilec options")
    ap.add_argument("--translate-only", action="store_true",
                    help="no --check for the mutants: the sanitizer build looks at the "
                         "translator, and NVRTC (not instrumented) is checked by the Release "
                         "build's run")
    args = ap.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(os.path.join(args.work, "in"))
    inputs = []  # (name, path, expectation or None)
    seeds = []
    for path in args.seeds:
        with open(path, encoding="utf-8") as f:
            seeds.append((os.path.splitext(os.path.basename(path))[0], f.read()))
    for name, kinds, text in mutate.mutants(seeds, args.count):
        path = os.path.join(args.work, "in", name + ".cpp")
        with open(path, "w", encoding="utf-8") as f:
            f.write("// mutant: %s\n%s" % (", ".join(kinds), text))
        inputs.append((name, path, None))
    for path in sorted(glob.glob(os.path.join(args.hand, "*.cpp"))):
        inputs.append((os.path.splitext(os.path.basename(path))[0], path, expectation(path)))

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(lambda i: check_input(args, *i), inputs):
            results.append(r)
    counts = {}
    failures = []
    for name, kind, problem, detail, _, _ in results:
        counts[kind] = counts.get(kind, 0) + 1
        if problem:
            failures.append((name, problem, detail))
    accepted = [(name, out) for name, kind, problem, _, out, _ in results
                if kind == "accepted" and not problem]
    for name, log in headers_compile(args, accepted):
        counts["broken"] = counts.get("broken", 0) + 1
        failures.append((name, "launcher header does not compile", log))

    for name, problem, detail in failures:
        print("FAIL %s: %s\n%s\n" % (name, problem, detail.rstrip()))
    summary = "corpus: %d inputs (%d mutants, %d hand-written): %s\ncorpus: %d failure%s\n" % (
        len(inputs), args.count, len(inputs) - args.count,
        ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items())),
        len(failures), "" if len(failures) == 1 else "s")
    # The slowest inputs: what the test's time goes to, for whoever keeps CI short.
    slowest = sorted(results, key=lambda r: -r[5])[:5]
    summary += "corpus: slowest: %s\n" % ", ".join("%s %.0f s" % (r[0], r[5]) for r in slowest)
    print(summary, end="")
    with open(os.path.join(args.work, "summary.txt"), "w") as f:
        f.write(summary)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
