#!/usr/bin/env python3
"""Path 2: train in your own framework, let brec judge the embeddings.

    brec export --pairs 0-9 --seed 100 --out DIR    the graphs brec eval would judge each pair on
    (this script) per pair: train a fresh model Siamese-style on the traintest group, then embed
                  all 4q graphs and save DIR/pair_ID.npy (float32 [4q, d])
    brec rpc --embeddings DIR                        both RPC protocols, the records and summary of
                                                     brec eval

Training follows brec's protocol (and BREC's): per pair a fresh model, batches of 32 consecutive
graphs (16 pairs G_i, H_i), loss = mean max(0, cos(f(G_i), f(H_i))) (CosineEmbeddingLoss with target
-1, margin 0), Adam (lr 1e-4, weight decay 1e-4), ReduceLROnPlateau on the epoch loss, up to 20
epochs, early stop below a loss of 0.2. Replace models.GinLike with your model, or this loop with
your framework's: brec only reads the .npy files.

    /usr/bin/python3 scripts/examples/train_and_rpc.py [--model gin|ppgn|degrees] [--pairs 0-9] [--check]

--check also runs NodeOrderProbe (a fixed function without parameters) both ways, through this
export path and through `brec eval --model torchscript:...`, and exits with status 1 unless both
give identical T^2 and decisions under both protocols, and unless the GIN-like model separated no
pair and failed no reliability check. Needs torch and numpy (Debian: python3-torch, python3-numpy).
"""
import argparse
import json
import os
import sys
import tempfile
from typing import Callable, Dict, Tuple

import numpy as np
import torch
from torch import Tensor, nn

import brec_cli
import models


class NodeOrderProbe(nn.Module):
    """A fixed function without parameters that is deliberately NOT permutation-invariant:
    out[g, k] = sum over nodes v of g of degree(v) * ((position of v in g + 1) * (k + 1) mod 7).
    Relabelings get different embeddings, so T^2 is far from 0 in both groups; the values are
    small integers, exact in float32 whatever the summation order. Equal T^2 through brec eval and
    through export + rpc then shows that both see the same graphs in the same order."""

    def __init__(self, out_dim: int = 16):
        super().__init__()
        self.out_dim = out_dim

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        n = x.size(0)
        deg = torch.zeros(n, dtype=x.dtype, device=x.device).index_add_(
            0, edge_index[1], torch.ones(edge_index.size(1), dtype=x.dtype, device=x.device))
        counts = torch.zeros(num_graphs, dtype=torch.long, device=x.device).index_add_(0, batch, torch.ones_like(batch))
        pos = torch.arange(n, device=x.device) - (torch.cumsum(counts, 0) - counts)[batch]
        k = torch.arange(1, self.out_dim + 1, device=x.device)
        weight = torch.remainder((pos + 1).unsqueeze(1) * k.unsqueeze(0), 7).to(x.dtype)
        out = torch.zeros([num_graphs, self.out_dim], dtype=x.dtype, device=x.device)
        return out.index_add_(0, batch, deg.unsqueeze(1) * weight)


class PairGraphs:
    """The 4q graphs of one pair from its .npz (brec export): slices as model inputs."""

    def __init__(self, path: str):
        z = np.load(path)
        self.edge_index = torch.from_numpy(z["edge_index"])
        self.batch = torch.from_numpy(z["batch"])
        self.node_ptr = z["node_ptr"].tolist()
        self.edge_ptr = z["edge_ptr"].tolist()
        self.count = len(self.node_ptr) - 1

    def inputs(self, begin: int, end: int) -> Tuple[Tensor, Tensor, Tensor, int]:
        """(x, edge_index, batch, num_graphs) of graphs [begin, end), numbered from 0."""
        n0, n1 = self.node_ptr[begin], self.node_ptr[end]
        e0, e1 = self.edge_ptr[begin], self.edge_ptr[end]
        x = torch.ones(n1 - n0, 1)
        return x, self.edge_index[:, e0:e1] - n0, self.batch[n0:n1] - begin, end - begin


def train_pair(model: nn.Module, graphs: PairGraphs, q: int, epochs: int, batch: int = 32, lr: float = 1e-4,
               weight_decay: float = 1e-4, loss_threshold: float = 0.2) -> int:
    """Siamese training on the traintest rows 0..2q-1; returns the epochs run."""
    params = [p for p in model.parameters() if p.requires_grad]
    if not params or epochs == 0:
        return 0
    opt = torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)
    model.train()
    for epoch in range(epochs):
        total = 0.0
        for b in range(0, 2 * q, batch):
            e = min(2 * q, b + batch)
            opt.zero_grad()
            out = model(*graphs.inputs(b, e))
            x, y = out[0::2], out[1::2]
            loss = nn.functional.cosine_embedding_loss(x, y, -torch.ones(x.size(0)), margin=0.0)
            loss.backward()
            opt.step()
            total += (e - b) / 2 * loss.item()
        total /= q
        if total < loss_threshold:
            return epoch + 1
        plateau.step(total)
    return epochs


def embed_pair(model: nn.Module, graphs: PairGraphs, batch: int = 32) -> np.ndarray:
    """Embeddings of all 4q graphs in row order (eval mode, consecutive batches)."""
    model.eval()
    with torch.no_grad():
        parts = [model(*graphs.inputs(b, min(graphs.count, b + batch))) for b in range(0, graphs.count, batch)]
    return torch.cat(parts).numpy().astype(np.float32)


def export_train_rpc(brec: str, export_dir: str, make_model: Callable[[], nn.Module], name: str,
                     epochs: int, seed: int) -> Tuple[dict, Dict[int, dict]]:
    """Embeds every pair of an export with a fresh trained model, then runs brec rpc."""
    manifest = json.load(open(os.path.join(export_dir, "manifest.json")))
    q = manifest["q"]
    for entry in manifest["pairs"]:
        torch.manual_seed(seed * 1000003 + entry["id"])  # this script's own per-pair seed
        model = make_model()
        graphs = PairGraphs(os.path.join(export_dir, entry["npz"]))
        train_pair(model, graphs, q, epochs)
        np.save(os.path.join(export_dir, entry["embeddings"]), embed_pair(model, graphs))
    summary, records = brec_cli.run_json(brec, ["rpc", "--embeddings", export_dir, "--model-name", name])
    return summary, {r["id"]: r for r in records}


def report(name: str, summary: dict) -> None:
    h, r = brec_cli.counts(summary), brec_cli.counts(summary, "brec_reference")
    print("%-10s pairs %3d  hotelling: distinguished %3d, reliability failures %d;  brec_reference: "
          "distinguished %3d, reliability failures %d" % (name, h["pairs"], h["distinguished"],
                                                          h["reliability_failures"], r["distinguished"],
                                                          r["reliability_failures"]))


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="brec_example_") as tmp:
        return run(tmp)


def run(tmp: str) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--brec", default="", help="the brec binary (default: $BREC, PATH, build/bin/brec)")
    p.add_argument("--model", choices=["gin", "ppgn", "degrees"], default="gin")
    p.add_argument("--pairs", default="0-9", help="pair ids of the shipped BREC dataset")
    p.add_argument("--seed", type=int, default=100, help="seed of the relabelings (as brec eval --seed)")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--out", default="", help="new directory for the export (default: a temporary one, removed at the end)")
    p.add_argument("--check", action="store_true", help="exit 1 unless the results are as expected")
    args = p.parse_args()
    brec = brec_cli.find_brec(args.brec)
    work = args.out or tmp

    def export(sub: str) -> str:
        d = os.path.join(work, sub)
        brec_cli.run_json(brec, ["export", "--pairs", args.pairs, "--seed", str(args.seed), "--out", d])
        return d

    makers = {"gin": models.GinLike, "ppgn": models.PpgnLike, "degrees": models.DegreeSequence}
    summary, _ = export_train_rpc(brec, export(args.model), makers[args.model], args.model, args.epochs, args.seed)
    report(args.model, summary)
    if not args.check:
        return 0

    problems = []
    if args.model == "gin":
        c = brec_cli.counts(summary)
        if c["distinguished"] or c["reliability_failures"]:
            problems.append("the GIN-like model separated %d pairs and failed %d reliability checks (expected 0 and 0)"
                            % (c["distinguished"], c["reliability_failures"]))
    # The same fixed function both ways: identical embeddings, so identical T^2 and decisions.
    _, by_rpc = export_train_rpc(brec, export("probe"), NodeOrderProbe, "probe", 0, args.seed)
    module = os.path.join(work, "node_order_probe.pt")
    models.save_scripted(NodeOrderProbe(), module)
    eval_summary, eval_records = brec_cli.run_json(
        brec, ["eval", "--model", "torchscript:" + module, "--pairs", args.pairs, "--seed", str(args.seed)])
    compared = 0
    for r in eval_records:
        for protocol in ("hotelling", "brec_reference"):
            a, b = r["protocols"][protocol], by_rpc[r["id"]]["protocols"][protocol]
            for key in ("t2_test", "t2_reliability", "distinguished", "reliable"):
                compared += 1
                if a[key] != b[key]:
                    problems.append("pair %d, %s %s: brec eval %s, export + rpc %s" % (r["id"], protocol, key, a[key], b[key]))
    first = eval_records[0]["protocols"]["hotelling"]
    print("node-order probe (no parameters) through brec eval and through export + rpc: %d pairs, %d values %s "
          "(pair %d: T^2 test %.6g, reliability %.6g)" % (len(eval_records), compared, "differ" if problems else "identical",
                                                        eval_records[0]["id"], first["t2_test"], first["t2_reliability"]))
    for line in problems:
        print("check failed: " + line, file=sys.stderr)
    print("check: " + ("FAILED" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    torch.set_num_threads(1)
    sys.exit(main())
