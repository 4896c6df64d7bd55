#!/usr/bin/env python3
"""CSV and PNG plots of benchmark JSON lines, one chart per kernel family.

usage: plots.py FILE.jsonl... --out DIR

Writes DIR/results.csv (every row: name, provider, value, unit, ms, note) and, for each family
(vector add, softmax, layer norm fwd/bwd, matmul, bench_spellings' kernels and the attention
example forward and backward), DIR/<family>.png: one group of bars per
problem, one bar per provider (tilec, triton, torch), in the family's unit (GB/s, TFLOP/s).
Where a provider has several rows of one name (tilec's configurations), the best is plotted.
"""
import csv
import os
import sys

from report import PROVIDERS, better, load

FAMILIES = (
    ("vector add", "vector_add"),
    ("softmax", "softmax"),
    ("layer norm fwd", "layer_norm_fwd"),
    ("layer norm bwd", "layer_norm_bwd"),
    ("matmul", "matmul"),
    # bench_spellings: the spelling of a kernel, not its algorithm, varies
    ("matmul_offsets", "matmul_offsets"),
    ("linear_nt", "linear_nt"),
    ("int8_gemm", "int8_gemm"),
    ("attention_fwd", "attention_fwd"),
    # bench_attention: the attention example against SDPA and Triton's tutorial 06
    ("fused_attention fwd", "fused_attention_fwd"),
    ("fused_attention bwd", "fused_attention_bwd"),
)
COLORS = {"tilec": "#1f77b4", "triton": "#ff7f0e", "torch": "#2ca02c"}


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "provider", "value", "unit", "ms", "note"])
        for r in rows:
            w.writerow([r.get("name"), r.get("provider"), r.get("value"), r.get("unit"),
                        r.get("ms"), r.get("note", "")])


def best_per_problem(rows, prefix):
    """{problem: {provider: value}} for rows whose name starts with prefix (rates only)."""
    table, units = {}, set()
    for r in rows:
        name, provider = r.get("name", ""), r.get("provider")
        if not name.startswith(prefix + " ") or provider not in PROVIDERS:
            continue
        if not r.get("unit", "").endswith("/s"):
            continue
        problem = name[len(prefix) + 1:]
        units.add(r["unit"])
        cell = table.setdefault(problem, {})
        if provider not in cell or better(r["unit"], r["value"], cell[provider]):
            cell[provider] = r["value"]
    return table, (units.pop() if len(units) == 1 else "")


def plot_family(plt, title, table, unit, path):
    problems = list(table)
    width = 0.8 / len(PROVIDERS)
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(problems)), 4))
    for i, provider in enumerate(PROVIDERS):
        xs = [p + (i - 1) * width for p in range(len(problems))]
        ys = [table[p].get(provider, 0) for p in problems]
        ax.bar(xs, ys, width, label=provider, color=COLORS[provider])
    ax.set_xticks(range(len(problems)))
    ax.set_xticklabels(problems, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(unit)
    ax.set_title(title + " (H200, higher is better)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv):
    if "--out" not in argv or argv.index("--out") + 1 >= len(argv):
        print(__doc__, file=sys.stderr)
        return 2
    i = argv.index("--out")
    out, paths = argv[i + 1], argv[:i] + argv[i + 2:]
    os.makedirs(out, exist_ok=True)
    rows = load(paths)
    write_csv(rows, os.path.join(out, "results.csv"))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plots: matplotlib is not installed; wrote results.csv only", file=sys.stderr)
        return 0
    for title, stem in FAMILIES:
        table, unit = best_per_problem(rows, title)
        if table:
            plot_family(plt, title, table, unit, os.path.join(out, stem + ".png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
