#!/usr/bin/env python3
"""PyG models judged by brec's pipeline through `import brec` (the device check of
scripts/gpu/proof2.sh): a GIN of torch_geometric's own layers (GINConv, global_add_pool) and the
PPGN-like module of scripts/examples/models.py behind a PyG-style forward(data), evaluated by
brec.evaluate on the given pairs. Without torch_geometric (a rehearsal on this machine) the GIN is
the GIN-like module of the examples behind the same forward(data); the output says which ran.

    PYTHONPATH=build/python python3 scripts/gpu/pyg_models.py --ids 0-59 --device cuda --out pyg.json
"""
import argparse
import json
import pathlib
import sys
import time

import torch
from torch import nn

import brec

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import models  # noqa: E402  (scripts/examples/models.py)

try:
    from torch_geometric.nn import GINConv, global_add_pool
    HAVE_PYG = True
except ImportError:
    HAVE_PYG = False


class PygGin(nn.Module):
    """4 GINConv layers of width 16 (MLP Linear-ReLU-Linear, then ReLU), sum pooling, a Linear to 16."""

    def __init__(self, hidden: int = 16, layers: int = 4, out_dim: int = 16):
        super().__init__()
        dims = [1] + [hidden] * layers
        self.convs = nn.ModuleList(
            GINConv(nn.Sequential(nn.Linear(a, b), nn.ReLU(), nn.Linear(b, b))) for a, b in zip(dims, dims[1:]))
        self.out = nn.Linear(hidden, out_dim)

    def forward(self, data):
        x = data.x
        for conv in self.convs:
            x = torch.relu(conv(x, data.edge_index))
        return self.out(global_add_pool(x, data.batch, size=data.num_graphs))


class PygStyle(nn.Module):
    """A module of the examples (forward(x, edge_index, batch, num_graphs)) behind forward(data)."""

    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def forward(self, data):
        return self.inner(data.x, data.edge_index, data.batch, data.num_graphs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ids", default="0-59")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    runs = {"torch_geometric": HAVE_PYG, "torch": torch.__version__, "device": a.device}
    gin = PygGin() if HAVE_PYG else PygStyle(models.GinLike())
    for name, model in (("pyg_gin", gin), ("pyg_ppgn_like", PygStyle(models.PpgnLike()))):
        start = time.perf_counter()
        summary, records = brec.evaluate(model, name=name, ids=a.ids, device=a.device, quiet=True)
        runs[name] = {"seconds": time.perf_counter() - start, "pairs": len(records),
                      "hotelling": summary["protocols"]["hotelling"]["total"],
                      "brec_reference": summary["protocols"]["brec_reference"]["total"]}
        print(name, json.dumps(runs[name]), flush=True)
    pathlib.Path(a.out).write_text(json.dumps(runs, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
