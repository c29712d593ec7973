#!/usr/bin/env python3
"""Path 1: your GNN as TorchScript, trained and judged by `brec eval` exactly like brec's models.

Saves the two example modules of models.py (a GIN-like one, bounded by 1-WL, and a PPGN-like one,
as expressive as 3-WL) with torch.jit.script, runs

    brec eval --model torchscript:gin_like.pt  --pairs 0-9
    brec eval --model torchscript:ppgn_like.pt --pairs 0-9
    brec eval --model ppgn                     --pairs 0-9     (brec's built-in PPGN, for comparison)

and prints pairs distinguished and reliability failures under both RPC protocols. brec draws every
module's weights again per pair from the pair's seed, so the weights saved here do not matter.

    /usr/bin/python3 scripts/examples/eval_torchscript.py [--pairs 0-9] [--epochs 20] [--check]

--check exits with status 1 unless the GIN-like module separates no pair and fails no reliability
check and the PPGN-like module separates as many pairs as the built-in PPGN (the test suite runs it
on Basic pairs 0-9). Needs torch only (Debian: python3-torch).
"""
import argparse
import os
import sys
import tempfile

import torch

import brec_cli
import models


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="brec_example_") as tmp:
        return run(tmp)


def run(tmp: str) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--brec", default="", help="the brec binary (default: $BREC, PATH, build/bin/brec)")
    p.add_argument("--pairs", default="0-9", help="pair ids of the shipped BREC dataset")
    p.add_argument("--epochs", type=int, default=20, help="training epochs per pair")
    p.add_argument("--out", default="", help="directory for the .pt files (default: a temporary one, removed at the end)")
    p.add_argument("--check", action="store_true", help="exit 1 unless the results are as expected")
    args = p.parse_args()
    brec = brec_cli.find_brec(args.brec)
    out = args.out or tmp
    os.makedirs(out, exist_ok=True)

    gin_path, ppgn_path = os.path.join(out, "gin_like.pt"), os.path.join(out, "ppgn_like.pt")
    models.save_scripted(models.GinLike(), gin_path)
    models.save_scripted(models.PpgnLike(), ppgn_path)
    if args.out:
        print("saved %s and %s" % (gin_path, ppgn_path))

    common = ["--pairs", args.pairs, "--epochs", str(args.epochs)]
    runs = {}
    for name, model in (("gin_like", "torchscript:" + gin_path), ("ppgn_like", "torchscript:" + ppgn_path),
                        ("ppgn (built-in)", "ppgn")):
        summary, records = brec_cli.run_json(brec, ["eval", "--model", model] + common)
        runs[name] = summary
        print("%-16s pairs %3d  hotelling: distinguished %3d, reliability failures %d;  "
              "brec_reference: distinguished %3d, reliability failures %d  (%.1f s)"
              % (name, summary["total"]["pairs"], brec_cli.counts(summary)["distinguished"],
                 brec_cli.counts(summary)["reliability_failures"],
                 brec_cli.counts(summary, "brec_reference")["distinguished"],
                 brec_cli.counts(summary, "brec_reference")["reliability_failures"], summary["seconds"]))

    if not args.check:
        return 0
    problems = []
    gin, ppgn, builtin = (brec_cli.counts(runs[k]) for k in ("gin_like", "ppgn_like", "ppgn (built-in)"))
    if gin["distinguished"] != 0:
        problems.append("the GIN-like module separated %d pairs (1-WL-equivalent pairs: expected 0)" % gin["distinguished"])
    for name, c in (("gin_like", gin), ("ppgn_like", ppgn)):
        if c["reliability_failures"] != 0:
            problems.append("%s failed %d reliability checks" % (name, c["reliability_failures"]))
    if ppgn["distinguished"] != builtin["distinguished"]:
        problems.append("the PPGN-like module separated %d pairs, the built-in PPGN %d"
                        % (ppgn["distinguished"], builtin["distinguished"]))
    for line in problems:
        print("check failed: " + line, file=sys.stderr)
    print("check: " + ("FAILED" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    sys.exit(main())
