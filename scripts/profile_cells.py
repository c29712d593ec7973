#!/usr/bin/env python3
"""Profiles the costliest (model, category) cells of the BREC board on the CPU: per cell one
representative pair, `brec eval --profile` for a few epochs (no early stop, one thread), and a
Markdown table of where an epoch's time goes (forward, backward, optimiser; the first epoch's
extra cost is the lazy preparation of the model's tensors), the FLOPs of one epoch counted from
tensor shapes (`brec eval --profile`, as the board's cost estimates count them), the bound those
FLOPs give at this machine's one-thread sgemm rate (measured here with numpy's BLAS, 1024^3
float32 products, best of 5) and the ratio of the measured epoch to that bound.

    python3 scripts/profile_cells.py                       # every default cell, 2 epochs each
    python3 scripts/profile_cells.py --cells dropgnn:0,lgnn2:260 --epochs 3
    python3 scripts/profile_cells.py --cells sswl_p:380 --kernel torch   # LibTorch's operators only

Run it on an idle machine: every number is one thread's wall time."""
import argparse
import json
import os
import subprocess
import sys
import time

# The costliest cells measured on the CPU (model: representative pair), worst first.
DEFAULT_CELLS = ("sswl_p:360,i2_gnn:380,kc_setgnn:270,sswl_p:380,de_ngnn:260,lgnn2:260,gnn_ak:260,"
                 "ds_gnn:260,dss_gnn:260,i2_gnn:118,dropgnn:0,dropgnn:300")
CATEGORY = [("Basic", 0, 59), ("Regular", 60, 109), ("SR", 110, 159), ("Extension", 160, 259), ("CFI", 260, 359),
            ("4-vertex", 360, 379), ("DR", 380, 399)]


def sgemm_rate():
    """GFLOP/s of one thread's float32 matrix product (numpy's BLAS, OpenBLAS on Debian)."""
    code = ("import numpy as np, time\n"
            "a = np.random.rand(1024, 1024).astype(np.float32); b = a.copy(); a @ b\n"
            "best = min((lambda t: (a @ b, time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(5))\n"
            "print(2 * 1024 ** 3 / best / 1e9)\n")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run(["/usr/bin/python3", "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


GEMM = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::addbmm"}
BATCH_NORM = {"aten::native_batch_norm", "aten::native_batch_norm_backward"}


def operator_split(seconds):
    """'GEMM / BatchNorm / rest' percentages of one training step's seconds, and the costliest
    entry of the rest with its share. The rest includes "(outside operators)": the step's time that
    no LibTorch operator encloses (the forward passes of brec's own kernels among it)."""
    total = sum(seconds.values())
    if total <= 0:
        return "– | –"
    gemm = sum(v for k, v in seconds.items() if k in GEMM)
    norm = sum(v for k, v in seconds.items() if k in BATCH_NORM)
    name, top = max(((k, v) for k, v in seconds.items() if k not in GEMM | BATCH_NORM), key=lambda kv: kv[1])
    short = name.split("::")[-1].rstrip(">") if "CppNode" in name else name.replace("aten::", "")
    return (f"{100 * gemm / total:.0f} / {100 * norm / total:.0f} / {100 * (total - gemm - norm) / total:.0f} | "
            f"{short} {100 * top / total:.0f}%")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brec", default="build/bin/brec")
    ap.add_argument("--cells", default=DEFAULT_CELLS, help="model:pair,... (default: the worst cells)")
    ap.add_argument("--epochs", type=int, default=2, help="epochs per cell (>= 2: the first includes preparation)")
    ap.add_argument("--json", help="also write the records here")
    ap.add_argument("--kernel", default="auto", choices=("auto", "blas", "torch"),
                    help="brec eval --kernel: auto (fused layers), blas or torch (LibTorch only)")
    a = ap.parse_args()
    rate = sgemm_rate()
    models = {m["name"]: m for m in json.loads(subprocess.run(
        [a.brec, "eval", "--list-models", "--json"], capture_output=True, text=True, check=True).stdout)}
    print(f"One-thread sgemm: {rate:.1f} GFLOP/s (1024^3 float32, best of 5). {a.epochs} epochs per cell.\n")
    print("| model | cell (pair, n) | s per epoch | forward / backward / optimiser % | first-epoch extra s | "
          "embed + decision s | GFLOP per epoch | FLOP bound s | measured / bound | s per pair (budget) | "
          "GEMM / BatchNorm / rest % of a step | largest of the rest |")
    print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|")
    records = []
    for cell in a.cells.split(","):
        model, pair = cell.split(":")
        start = time.perf_counter()
        run = subprocess.run([a.brec, "eval", "--model", model, "--pairs", pair, "--epochs", str(a.epochs),
                              "--loss-threshold", "0", "--profile", "--torch-threads", "1", "--json", "--quiet",
                              "--kernel", a.kernel],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"| `{model}` | {pair} | failed: {run.stderr.strip()} |||||||")
            continue
        r = json.loads(run.stdout.splitlines()[0])
        records.append(r)
        p, epochs = r["profile"], max(1, r["epochs"])
        later = (r["train_seconds"] - p["first_epoch_seconds"]) / (epochs - 1) if epochs > 1 else r["train_seconds"]
        steps = p["forward_seconds"] + p["backward_seconds"] + p["optimiser_seconds"]
        split = " / ".join(f"{100 * p[k] / steps:.0f}" for k in ("forward_seconds", "backward_seconds",
                                                                   "optimiser_seconds")) if steps > 0 else "–"
        bound = p["epoch_flops"] / (rate * 1e9)
        budget = models[model]["defaults"]["epochs"]
        whole = p["prepare_seconds"] + (p["first_epoch_seconds"] - later) + budget * later + \
            p["embed_seconds"] + p["decision_seconds"]
        name = next(c for c, lo, hi in CATEGORY if lo <= r["id"] <= hi)
        print(f"| `{model}` | {name} ({r['id']}, n = {r['n']}) | {later:.2f} | {split} | "
              f"{p['first_epoch_seconds'] - later + p['prepare_seconds']:.2f} | "
              f"{p['embed_seconds'] + p['decision_seconds']:.2f} | {p['epoch_flops'] / 1e9:.1f} | {bound:.2f} | "
              f"{later / bound if bound > 0 else float('inf'):.1f} | {whole:.0f} ({budget} epochs) | "
              f"{operator_split(p.get('step_op_seconds', {}))} |", flush=True)
        print(f"  {model}:{pair} took {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if a.json:
        with open(a.json, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    sys.exit(main())
