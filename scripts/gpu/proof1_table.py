#!/usr/bin/env python3
"""Reads the results of scripts/gpu/proof1.sh (the folder proof1/ of proof1.tar.gz) and prints
Markdown: the CUDA tests, the board's GPU cost per model (seconds per epoch and per RPC decision
on one representative pair per fine category, the extrapolated time of the model's paper subset
beside the BREC paper's RTX 4090 seconds) and PPGN side by side with the reference pipeline.

  python3 scripts/gpu/proof1_table.py proof1/ [--brec build/bin/brec] [--board datasets/brec/results/seed100]

The extrapolation: per fine category, pairs of the model's paper subset x (epochs x seconds per
epoch + seconds of the decision); epochs are the median of the model's records of that category in
the CPU board where it has some (early stopping), else the model's epoch budget."""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET

CATEGORIES = [("basic", 0, 59), ("regular", 60, 109), ("strongly_regular", 110, 159), ("extension", 160, 259),
              ("cfi", 260, 359), ("four_vertex_condition", 360, 379), ("distance_regular", 380, 399)]
SHORT = {"basic": "Basic", "regular": "Regular", "strongly_regular": "SR", "extension": "Ext.", "cfi": "CFI",
         "four_vertex_condition": "4-vertex", "distance_regular": "DR"}
# Seconds of preprocessing + evaluation on an RTX 4090, Table 11 of the extended BREC paper (Wang and
# Zhang, "Towards Better Evaluation of GNN Expressiveness with BREC Dataset").
PAPER_4090 = {"ngnn": (516, 388), "de_ngnn": (3123, 1087), "ds_gnn": (2343, 3300), "dss_gnn": (2343, 1008),
              "sun": (2343, 1925), "sswl_p": (644, 4085), "gnn_ak": (768, 1048), "kp_gnn": (73113, 873),
              "i2_gnn": (10460, 7013), "ppgn": (47, 156), "lgnn2": (5, 2532), "kc_setgnn": (118005, 5670),
              "gsn": (5231, 150), "dropgnn": (393, 533), "osan": (1, 187023), "graphormer": (66, 13681)}


def category(i):
    return next(name for name, lo, hi in CATEGORIES if lo <= i <= hi)


def ids(text):
    out = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def jsonl(path):
    return [json.loads(line) for line in open(path) if line.strip()] if path.exists() else []


def tests_section(d):
    print("## CUDA tests\n\n| suite | tests | failures | skipped | failed tests |\n|---|---:|---:|---:|---|")
    for xml in sorted(d.glob("test_*.xml")):
        root = ET.parse(xml).getroot()
        failed, skipped, total = [], 0, 0
        for case in root.iter("testcase"):
            total += 1
            if case.find("failure") is not None:
                failed.append(case.get("classname", "") + "." + case.get("name", ""))
            if case.get("result") == "skipped" or case.find("skipped") is not None:
                skipped += 1
        print(f"| {xml.stem} | {total} | {len(failed)} | {skipped} | {', '.join(failed) or '—'} |")
    print()


def cost_section(d, models, board):
    print("## The board's GPU cost\n")
    print("Seconds per epoch / per decision on one pair of each category. Serial: the model's paper subset one pair "
          "at a time (an upper bound: `--jobs` runs pairs side by side on the card), with the CPU board's epochs. "
          "The runs shared the card and the cores with three other models (and, run by proofs.sh, with the other "
          "check), so every figure is an upper bound.\n")
    print("| model | " + " | ".join(SHORT[c] for c, _, _ in CATEGORIES) +
          " | serial s | BREC 4090 s (prep + eval) | serial under 10 min |")
    print("|---|" + "---|" * len(CATEGORIES) + "---:|---:|---|")
    memory = d / "cost" / "gpu_memory_mib.txt"
    for m in models:
        name = m["name"]
        records = {r["category"]: r for r in jsonl(d / "cost" / f"{name}.jsonl")}
        subset = ids(m["paper_subset"]) if m["paper_subset"] else set(range(400))
        cpu = {}
        for r in jsonl(board / f"{name}.jsonl"):
            if not r.get("skipped"):
                cpu.setdefault(r["category"], []).append(r.get("epochs", 0))
        cells, total, complete = [], 0.0, True
        for c, lo, hi in CATEGORIES:
            n = len([i for i in subset if lo <= i <= hi])
            r = records.get(c)
            if r is None or r.get("skipped") or not r.get("epochs"):
                cells.append("—" if r is None else "skipped")
                complete = complete and n == 0
                continue
            epoch = r["train_seconds"] / r["epochs"]
            decision = r["seconds"] - r["train_seconds"]
            cells.append(f"{epoch:.3g} / {decision:.3g}")
            epochs = statistics.median(cpu[c]) if c in cpu else m["defaults"]["epochs"]
            total += n * (epochs * epoch + decision)
        paper = PAPER_4090.get(name)
        print(f"| `{name}` | " + " | ".join(cells) + f" | {total:.0f}{'' if complete else ' (partial)'} | " +
              (f"{paper[0]} + {paper[1]}" if paper else "—") + f" | {'yes' if complete and total < 600 else 'no'} |")
    if memory.exists():
        values = [int(v) for v in memory.read_text().split() if v.strip().isdigit()]
        if values:
            print(f"\nPeak GPU memory in use during the stage (all models together): {max(values)} MiB.")
    print()


def ref_section(d):
    ref_path, brec = d / "ref_reference.json", jsonl(d / "ref_brec.jsonl")
    if not ref_path.exists() or not brec:
        print("## PPGN side by side\n\nNot run (or not finished).\n")
        return
    ref = {r["id"]: r for r in json.load(open(ref_path))["results"]}
    ours = {r["id"]: r for r in brec}
    both = sorted(set(ref) & set(ours))
    print("## PPGN side by side (same card)\n\n| pairs | reference s | brec s | ratio | decisions agree |\n"
          "|---|---:|---:|---:|---:|")
    for name, lo, hi in CATEGORIES:
        part = [i for i in both if lo <= i <= hi]
        if not part:
            continue
        rs = sum(ref[i]["wall_s"] for i in part)
        bs = sum(ours[i]["seconds"] for i in part)
        agree = sum(ref[i]["distinguished"] == ours[i]["protocols"]["brec_reference"]["distinguished"] for i in part)
        print(f"| {name} ({len(part)}) | {rs:.2f} | {bs:.2f} | {rs / bs:.1f} | {agree} / {len(part)} |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", type=pathlib.Path)
    ap.add_argument("--brec", default="build/bin/brec")
    ap.add_argument("--board", type=pathlib.Path, default=pathlib.Path("datasets/brec/results/seed100"))
    a = ap.parse_args()
    models = json.loads(subprocess.run([a.brec, "eval", "--list-models", "--json"], check=True,
                                       capture_output=True, text=True).stdout)
    print((a.results / "machine.txt").read_text() if (a.results / "machine.txt").exists() else "")
    print((a.results / "stages.tsv").read_text() if (a.results / "stages.tsv").exists() else "")
    tests_section(a.results)
    cost_section(a.results, models, a.board)
    ref_section(a.results)


if __name__ == "__main__":
    sys.exit(main())
