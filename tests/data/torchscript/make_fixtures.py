#!/usr/bin/python3
"""Writes the TorchScript fixtures of tests/eval/torchscript_test.cpp (Debian's python3-torch 1.13):

    /usr/bin/python3 tests/data/torchscript/make_fixtures.py

Good modules: a small GIN-like module (scripts/examples/models.py) with d = 4, the same with dropout,
a parameter-free invariant (the sorted degree sequence, padded to d = 4), and a small PPGN-like
module with one more product by torch.bmm inside a branch (the matrix products brec rewrites). Bad modules: each
breaks the interface in one way that brec must name.
"""
import os
import sys
from typing import Tuple

import torch
from torch import Tensor, nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scripts", "examples"))
import models  # noqa: E402


class DegreeSequence(nn.Module):
    """Per graph its 4 largest degrees, descending (no parameters: a fixed invariant)."""

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        deg = torch.zeros(x.size(0), dtype=torch.float32, device=x.device).index_add_(
            0, edge_index[1], torch.ones(edge_index.size(1), dtype=torch.float32, device=x.device))
        out = torch.zeros([num_graphs, 4], dtype=torch.float32, device=x.device)
        for g in range(num_graphs):
            d = torch.sort(deg[batch == g], descending=True)[0][:4]
            out[g, : d.size(0)] = d
        return out


class GinDropout(nn.Module):
    def __init__(self):
        super().__init__()
        self.gin = models.GinLike(hidden=8, layers=2, out_dim=4)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        return self.gin(nn.functional.dropout(x + 1.0, 0.5, self.training), edge_index, batch, num_graphs)


class PpgnBmm(nn.Module):
    """PpgnLike (torch.matmul in each block, a submodule) and a torch.bmm inside an if-branch."""

    def __init__(self):
        super().__init__()
        self.ppgn = models.PpgnLike(hidden=4, blocks=2, out_dim=4)
        self.mix = nn.Parameter(torch.randn(4, 4))

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        out = self.ppgn(x, edge_index, batch, num_graphs)
        if num_graphs > 0:
            out = torch.bmm(out.unsqueeze(1), self.mix.expand(num_graphs, 4, 4)).squeeze(1)
        return out


class ThreeArguments(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 4)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor) -> Tensor:
        return self.lin(x)


class WrongWidth(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 8)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        return torch.zeros([num_graphs, 8]).index_add_(0, batch, self.lin(x))


class NanOutput(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 4)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        return torch.zeros([num_graphs, 4]).index_add_(0, batch, self.lin(x)) * float("nan")


class TupleOutput(nn.Module):
    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tuple[Tensor, Tensor]:
        return x, x


class TensorCount(nn.Module):
    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: Tensor) -> Tensor:
        return x


class NoForward(nn.Module):
    @torch.jit.export
    def embed(self, x: Tensor) -> Tensor:
        return x


def main() -> None:
    torch.manual_seed(0)
    save = lambda m, name: torch.jit.script(m).save(os.path.join(HERE, name))  # noqa: E731
    save(models.GinLike(hidden=8, layers=2, out_dim=4), "gin_d4.pt")
    save(GinDropout(), "gin_dropout_d4.pt")
    save(DegreeSequence(), "degree_sequence_d4.pt")
    save(PpgnBmm(), "ppgn_bmm_d4.pt")
    save(ThreeArguments(), "bad_three_arguments.pt")
    save(WrongWidth(), "bad_width_8.pt")
    save(NanOutput(), "bad_nan.pt")
    save(TupleOutput(), "bad_tuple.pt")
    save(TensorCount(), "bad_tensor_count.pt")
    save(NoForward(), "bad_no_forward.pt")
    with open(os.path.join(HERE, "bad_not_torchscript.pt"), "wb") as f:
        f.write(b"PK\x03\x04 this is not a TorchScript archive")


if __name__ == "__main__":
    main()
