#!/usr/bin/env python3
"""Path 1: your GNN from Python, trained and judged by brec's own pipeline (`import brec`).

Runs the two example modules of models.py (a GIN-like one, bounded by 1-WL, and a PPGN-like one,
as expressive as 3-WL) through brec.evaluate, the same C++ trainer and RPC test as `brec eval`
(Python runs only the forward passes), and prints pairs distinguished and reliability failures
under both RPC protocols:

    PYTHONPATH=build/python /usr/bin/python3 scripts/examples/eval_python.py [--pairs 0-9] [--epochs 20] [--check]

--check exits with status 1 unless the GIN-like module separates no pair and fails no reliability
check and the PPGN-like module separates every pair (the test suite runs it on Basic pairs 0-9).
"""
import argparse
import sys
import time

import brec
import models


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", default="0-9", help="pair ids of the shipped BREC dataset")
    p.add_argument("--epochs", type=int, default=20, help="training epochs per pair")
    p.add_argument("--check", action="store_true", help="exit 1 unless the results are as expected")
    args = p.parse_args()

    runs = {}
    for name, model in (("gin_like", models.GinLike()), ("ppgn_like", models.PpgnLike())):
        start = time.perf_counter()
        summary, records = brec.evaluate(model, name=name, ids=args.pairs, epochs=args.epochs, quiet=True)
        runs[name] = summary
        hot, ref = summary["protocols"]["hotelling"]["total"], summary["protocols"]["brec_reference"]["total"]
        print("%-10s pairs %3d  hotelling: distinguished %3d, reliability failures %d;  "
              "brec_reference: distinguished %3d, reliability failures %d  (%.1f s)"
              % (name, len(records), hot["distinguished"], hot["reliability_failures"], ref["distinguished"],
                 ref["reliability_failures"], time.perf_counter() - start))
    if not args.check:
        return 0
    gin, ppgn = runs["gin_like"]["total"], runs["ppgn_like"]["total"]
    ok = gin["distinguished"] == 0 and gin["reliability_failures"] == 0
    ok = ok and ppgn["distinguished"] == ppgn["pairs"] and ppgn["reliability_failures"] == 0
    print("check:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
