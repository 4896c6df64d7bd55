#!/usr/bin/env python3
"""Merge benchmark JSON lines into one short Markdown table.

usage: report.py FILE.jsonl...   (lines that are not JSON objects are ignored)
       report.py --ratio FILE.jsonl...   (one row per name: tilec, triton and their ratio)

Columns: name | tilec | triton | torch | unit | tilec vs triton, torch | % of copy ceiling.
"vs" is how many times better tilec is (above 1: faster). Where a provider has several rows
of one name (tilec's configs, SDPA's backends), the best is shown and its note listed below.
"""
import json
import math
import sys

PROVIDERS = ("tilec", "triton", "torch")
CEILING_NAME = "copy 2 GiB (ceiling)"
ANCHOR_CEILING_GBS = 4248.47  # measured on an H200 (torch copy of 2 GiB)


def load(paths):
    rows = []
    for path in paths:
        try:
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if line.startswith("{"):
                        try:
                            rows.append(json.loads(line))
                        except json.JSONDecodeError:
                            pass
        except OSError as e:
            print(f"report: cannot read {path}: {e}", file=sys.stderr)
    return rows


def better(unit, a, b):
    """True when value a beats b: more is better for rates, less for times."""
    return a > b if unit.endswith("/s") else a < b


def ratio(unit, tilec, peer):
    """tilec relative to a peer, above 1 when tilec is better; "-" when either is missing."""
    if tilec is None or peer is None or tilec <= 0 or peer <= 0:
        return "-"
    return f"{(tilec / peer if unit.endswith('/s') else peer / tilec):.2f}x"


def fmt(v):
    return "-" if v is None else (f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}")


def best_rows(rows, providers):
    """The best row per (name, provider) among `providers`, the names in first-seen order, and
    the rows of other providers."""
    best, order, others = {}, [], []
    for r in rows:
        if r["provider"] not in providers:
            others.append(r)
            continue
        if r["name"] not in order:
            order.append(r["name"])
        key = (r["name"], r["provider"])
        if key not in best or better(r["unit"], r["value"], best[key]["value"]):
            best[key] = r
    return best, order, others


def main(paths):
    rows = load(paths)
    best, order, others = best_rows(rows, PROVIDERS)

    if CEILING_NAME in order:  # the reference row first
        order.insert(0, order.pop(order.index(CEILING_NAME)))
    ceiling = next((r["value"] for r in rows if r["name"] == CEILING_NAME), None)
    ceiling_note = "measured" if ceiling else "anchor, not measured in this run"
    ceiling = ceiling or ANCHOR_CEILING_GBS

    print("| name | tilec | triton | torch | unit | tilec vs triton, torch "
          "| % of copy ceiling (tilec / triton / torch) |")
    print("|---|---|---|---|---|---|---|")
    for name in order:
        cells = [best.get((name, p)) for p in PROVIDERS]
        unit = next(c["unit"] for c in cells if c)
        values = [c["value"] if c else None for c in cells]
        pct = ""
        if unit == "GB/s" and name != CEILING_NAME:
            pct = " / ".join("-" if v is None else f"{100 * v / ceiling:.0f}%" for v in values)
        vs = ", ".join(ratio(unit, values[0], v) for v in values[1:]) if values[0] else ""
        print(f"| {name} | " + " | ".join(fmt(v) for v in values) + f" | {unit} | {vs} | {pct} |")

    print(f"\nCopy ceiling: {ceiling:.0f} GB/s ({ceiling_note}).")
    notes = [(n, best[(n, "tilec")]["note"]) for n in order
             if (n, "tilec") in best and best[(n, "tilec")]["note"]]
    if notes:
        print("\ntilec rows:")
        for name, note in notes:
            print(f"- {name}: {note}")
    # Peers timed several ways under one name (SDPA's backends): which one is shown.
    counts = {}
    for r in rows:
        if r["provider"] in PROVIDERS[1:]:
            counts[(r["name"], r["provider"])] = counts.get((r["name"], r["provider"]), 0) + 1
    chosen = [(n, p, best[(n, p)]["note"]) for n in order for p in PROVIDERS[1:]
              if counts.get((n, p), 0) > 1 and best[(n, p)].get("note")]
    if chosen:
        print("\nBest of several peer rows:")
        for name, provider, note in chosen:
            print(f"- {name} ({provider}): {note}")
    if others:
        print("\nOther rows:")
        for r in others:
            print(f"- {r['name']} ({r['provider']}): {fmt(r['value'])} {r['unit']}"
                  + (f" - {r['note']}" if r.get("note") else ""))
    if not rows:
        print("\n(no benchmark rows were found)")


def ratio_table(paths):
    """tilec against triton per name: the speed ratio (above 1: tilec faster), its geometric
    mean and how many names reach 1.0; names without both providers are listed apart."""
    rows = load(paths)
    best, order, _ = best_rows(rows, ("tilec", "triton"))
    print("| kernel | tilec | triton | unit | tilec / triton |")
    print("|---|---|---|---|---|")
    logs, missing = [], []
    for name in order:
        t, p = best.get((name, "tilec")), best.get((name, "triton"))
        if not t or not p:
            missing.append(name)
            continue
        speed = t["value"] / p["value"] if t["unit"].endswith("/s") else p["value"] / t["value"]
        logs.append(math.log(speed))
        print(f"| {name} | {fmt(t['value'])} | {fmt(p['value'])} | {t['unit']} | {speed:.2f}x |")
    if logs:
        mean = math.exp(sum(logs) / len(logs))
        at_least = sum(1 for v in logs if v >= math.log(0.995))
        print(f"\nGeometric mean {mean:.2f}x over {len(logs)} kernels; {at_least} at or above 1.0x.")
    for name in missing:
        print(f"- {name}: only one provider ran")
    if not rows:
        print("\n(no benchmark rows were found)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--ratio"]:
        ratio_table(sys.argv[2:])
    else:
        main(sys.argv[1:])
