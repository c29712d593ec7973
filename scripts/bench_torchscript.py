#!/usr/bin/env python3
"""Benchmark (not run in CI): a user's TorchScript module against brec's built-in model of the same
architecture, both trained and judged by `brec eval` on the same pairs with the same settings.

    /usr/bin/python3 scripts/bench_torchscript.py                   # Basic pairs 0-59, GIN and PPGN
    /usr/bin/python3 scripts/bench_torchscript.py --ids 160-179 --models gin --epochs 10

The TorchScript modules: scripts/examples/models.py's GinLike (exactly the built-in GIN: 4 layers of
width 32, eps, Linear-BatchNorm-ReLU-Linear-ReLU, sum pooling of every layer, Linear to 16,
BatchNorm1d) and PpgnSame below (the built-in PPGN: 5 blocks of width 32 on A + I, one 1x1-conv +
ReLU per branch, per-channel matrix product, skip 1x1 conv over the concatenation, BatchNorm2d,
diagonal/off-diagonal max pooling per block into Linear(64, 16), summed, BatchNorm1d). Initial
weights differ (brec draws a module's by PyTorch's default rule; the built-ins use Xavier), which
changes no operation count. Early stopping is off (--loss-threshold 0), so every pair trains the
same number of epochs in both and seconds per pair compare directly. Prints per model seconds per
pair, training seconds per epoch, the ratio module / built-in, and the decisions.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import torch
from torch import Tensor, nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "examples"))
import brec_cli  # noqa: E402
import models  # noqa: E402


class PpgnBlockSame(nn.Module):
    def __init__(self, in_ch: int, hidden: int):
        super().__init__()
        self.mlp1 = nn.Conv2d(in_ch, hidden, 1)
        self.mlp2 = nn.Conv2d(in_ch, hidden, 1)
        self.skip = nn.Conv2d(in_ch + hidden, hidden, 1)
        self.bn = nn.BatchNorm2d(hidden, affine=False, momentum=1.0)

    def forward(self, x: Tensor) -> Tensor:
        mult = torch.matmul(torch.relu(self.mlp1(x)), torch.relu(self.mlp2(x)))
        return self.bn(self.skip(torch.cat([x, mult], 1)))


class PpgnSame(nn.Module):
    """brec's built-in PPGN for graphs of one size per batch (BREC pairs): input A + I."""

    def __init__(self, hidden: int = 32, blocks: int = 5, out_dim: int = 16):
        super().__init__()
        self.blocks = nn.ModuleList([PpgnBlockSame(1 if i == 0 else hidden, hidden) for i in range(blocks)])
        self.heads = nn.ModuleList([nn.Linear(2 * hidden, out_dim) for _ in range(blocks)])
        self.norm = nn.BatchNorm1d(out_dim, affine=False, momentum=1.0)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        n = x.size(0) // num_graphs
        local = edge_index - (edge_index // n) * n  # vertex numbers inside each graph
        adj = torch.zeros([num_graphs, n, n], dtype=x.dtype, device=x.device)
        adj[batch[edge_index[0]], local[0], local[1]] = 1.0
        eye = torch.eye(n, dtype=x.dtype, device=x.device)
        t = (adj + eye).unsqueeze(1)
        off = (1.0 - eye).to(torch.bool)
        out = torch.zeros([num_graphs, self.norm.num_features], dtype=x.dtype, device=x.device)
        for block, head in zip(self.blocks, self.heads):
            t = block(t)
            diag = torch.diagonal(t, dim1=2, dim2=3).amax(2)
            offd = t.masked_fill(~off, -1e30).amax(dim=(2, 3))
            out = out + head(torch.cat([diag, offd], 1))
        return self.norm(out)


def run(brec: str, model: str, args, out_dir: str) -> list:
    path = os.path.join(out_dir, model.replace("/", "_").replace(":", "_") + ".jsonl")
    cmd = [brec, "eval", "--model", model, "--pairs", args.ids, "--epochs", str(args.epochs), "--loss-threshold", "0",
           "--torch-threads", str(args.threads), "--jobs", "1", "--device", "cpu", "--out", path, "--quiet"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return [json.loads(line) for line in open(path) if line.strip()]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--brec", default="")
    p.add_argument("--ids", default="0-59")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--models", default="gin,ppgn")
    p.add_argument("--repeat", type=int, default=1, help="runs of each model; the fastest counts")
    args = p.parse_args()
    brec = brec_cli.find_brec(args.brec)
    with tempfile.TemporaryDirectory(prefix="brec_bench_ts_") as tmp:
        modules = {"gin": models.GinLike(), "ppgn": PpgnSame()}
        print("pairs %s, %d epochs each (no early stop), %d intra-op thread(s), best of %d"
              % (args.ids, args.epochs, args.threads, args.repeat))
        for name in args.models.split(","):
            module = os.path.join(tmp, name + "_same.pt")
            models.save_scripted(modules[name], module)
            best = {}
            for _ in range(args.repeat):
                for label, model in (("built-in", name), ("torchscript", "torchscript:" + module)):
                    os.makedirs(os.path.join(tmp, "runs"), exist_ok=True)
                    for f in os.listdir(os.path.join(tmp, "runs")):
                        os.remove(os.path.join(tmp, "runs", f))
                    rows = run(brec, model, args, os.path.join(tmp, "runs"))
                    per_pair = sum(r["seconds"] for r in rows) / len(rows)
                    per_epoch = sum(r["train_seconds"] for r in rows) / sum(max(1, r["epochs"]) for r in rows)
                    dist = sum(r["protocols"]["hotelling"]["distinguished"] and r["protocols"]["hotelling"]["reliable"] for r in rows)
                    fail = sum(not r["protocols"]["hotelling"]["reliable"] for r in rows)
                    if label not in best or per_pair < best[label][0]:
                        best[label] = (per_pair, per_epoch, dist, fail, len(rows))
            for label in ("built-in", "torchscript"):
                s, e, d, f, n = best[label]
                print("%-5s %-12s %8.3f s/pair  %8.4f s/epoch  distinguished %3d/%d  reliability failures %d"
                      % (name, label, s, e, d, n, f))
            print("%-5s ratio        %8.2f x per pair  %6.2f x per epoch  (torchscript / built-in; goal <= 1.5)"
                  % (name, best["torchscript"][0] / best["built-in"][0], best["torchscript"][1] / best["built-in"][1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
