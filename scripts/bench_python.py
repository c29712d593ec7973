#!/usr/bin/env python3
"""Benchmark (not run in CI): a user's module through the Python package (brec.evaluate) against the
same module as TorchScript (`brec eval --model torchscript:FILE`) and brec's built-in model of that
architecture, all trained and judged by the same C++ pipeline on the same pairs and settings.

    PYTHONPATH=build/python /usr/bin/python3 scripts/bench_python.py            # Basic 0-59, GIN and PPGN
    PYTHONPATH=build/python /usr/bin/python3 scripts/bench_python.py --models ppgn --ids 0-9 --epochs 5

The modules are those of scripts/bench_torchscript.py (GinLike: exactly the built-in GIN; PpgnSame:
the built-in PPGN). Early stopping is off (loss threshold 0), so every pair trains the same number of
epochs and seconds per pair compare directly. The Python path runs in a child process, once with
glibc's malloc and once with tcmalloc preloaded (brec-eval, which runs the TorchScript and built-in
paths, is linked with tcmalloc), so the allocator's share shows, and once with torch's own matrix
products and convolutions (kernels="torch") instead of brec's, which the TorchScript path also runs
(brec.brec_kernels), so the kernels' share shows. Prints seconds per pair and per training epoch,
the ratios to the TorchScript path, and the decisions.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "examples"))
sys.path.insert(0, HERE)
import brec_cli  # noqa: E402


def python_run(args, name: str, path: str, preload: str, kernels: str) -> None:
    """brec.evaluate in a child process (so that LD_PRELOAD can apply), records to `path`."""
    code = (
        "import sys; sys.path[:0] = %r\n"
        "import brec, models, bench_torchscript as b\n"
        "m = {'gin': models.GinLike, 'ppgn': b.PpgnSame}[%r]()\n"
        "brec.evaluate(m, name=%r, ids=%r, epochs=%d, loss_threshold=0.0, torch_threads=%d, jobs=1,\n"
        "              device='cpu', out=%r, kernels=%r, quiet=True)\n"
        % ([os.path.join(HERE, "examples"), HERE], name, name + "_python", args.ids, args.epochs, args.threads, path,
           kernels))
    env = dict(os.environ)
    if preload:
        env["LD_PRELOAD"] = preload
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def stats(rows):
    per_pair = sum(r["seconds"] for r in rows) / len(rows)
    per_epoch = sum(r["train_seconds"] for r in rows) / sum(max(1, r["epochs"]) for r in rows)
    hot = [r["protocols"]["hotelling"] for r in rows]
    return per_pair, per_epoch, sum(h["distinguished"] and h["reliable"] for h in hot), sum(not h["reliable"] for h in hot)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--brec", default="")
    p.add_argument("--ids", default="0-59")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--models", default="gin,ppgn")
    p.add_argument("--repeat", type=int, default=1, help="runs of each path; the fastest counts")
    args = p.parse_args()
    brec = brec_cli.find_brec(args.brec)
    import bench_torchscript  # noqa: E402 (after sys.path)
    import models  # noqa: E402

    tcmalloc = next(iter(sorted(glob.glob("/usr/lib/*/libtcmalloc.so*"))), "")
    print("pairs %s, %d epochs each (no early stop), %d intra-op thread(s), best of %d"
          % (args.ids, args.epochs, args.threads, args.repeat))
    with tempfile.TemporaryDirectory(prefix="brec_bench_py_") as tmp:
        for name in args.models.split(","):
            module = os.path.join(tmp, name + "_same.pt")
            models.save_scripted({"gin": models.GinLike, "ppgn": bench_torchscript.PpgnSame}[name](), module)
            paths = [("built-in", name), ("torchscript", "torchscript:" + module), ("python", ""),
                     ("python+tcmalloc", tcmalloc), ("python torch-kernels", "")]
            best = {}
            for _ in range(args.repeat):
                for label, what in paths:
                    if label == "python+tcmalloc" and not tcmalloc:
                        continue
                    runs = os.path.join(tmp, "runs")
                    os.makedirs(runs, exist_ok=True)
                    for f in os.listdir(runs):
                        os.remove(os.path.join(runs, f))
                    if label.startswith("python"):
                        out = os.path.join(runs, "python.jsonl")
                        python_run(args, name, out, what, "torch" if "torch-kernels" in label else "brec")
                        rows = [json.loads(line) for line in open(out) if line.strip()]
                    else:
                        rows = bench_torchscript.run(brec, what, args, runs)
                    s = stats(rows)
                    if label not in best or s[0] < best[label][0]:
                        best[label] = s + (len(rows),)
            for label, _ in paths:
                if label not in best:
                    continue
                s, e, d, f, n = best[label]
                print("%-5s %-20s %8.3f s/pair  %8.4f s/epoch  distinguished %3d/%d  reliability failures %d"
                      % (name, label, s, e, d, n, f))
            ts = best["torchscript"]
            for label in ("python", "python+tcmalloc", "python torch-kernels"):
                if label in best:
                    print("%-5s %-20s %8.2f x per pair  %6.2f x per epoch  (/ torchscript; goal <= 1.3)"
                          % (name, label, best[label][0] / ts[0], best[label][1] / ts[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
