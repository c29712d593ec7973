"""Two small GNNs in plain PyTorch with the interface `brec eval --model torchscript:FILE` expects.

    forward(x: Tensor[N, F] float32, edge_index: Tensor[2, E] int64 (both directions of every
            edge; row 0 sources, row 1 targets), batch: Tensor[N] int64 (graph of each node,
            0..B-1), num_graphs: int) -> Tensor[B, d]

GinLike is the architecture of brec's built-in GIN (message passing, so bounded by 1-WL: it
separates no BREC pair). PpgnLike is a small PPGN (Maron et al. 2019: products of per-channel
matrices simulate 2-FWL = 3-WL) that builds each graph's dense adjacency from edge_index inside
forward. Both end in BatchNorm1d without affine parameters and momentum 1, as the BREC models do.
DegreeSequence is a fixed invariant without parameters (for checking that both ways into brec agree).

Only torch is needed (Debian: python3-torch). Save a scripted module with
    torch.jit.script(GinLike()).save("gin_like.pt")
"""
from typing import List

import torch
from torch import Tensor, nn


def scatter_sum(src: Tensor, index: Tensor, size: int) -> Tensor:
    """out[i] = sum of src[k] over k with index[k] == i (rows of src)."""
    out = torch.zeros([size, src.size(1)], dtype=src.dtype, device=src.device)
    return out.index_add_(0, index, src)


class GinLayer(nn.Module):
    """h' = MLP((1 + eps) h + sum of neighbours), MLP = Linear-BatchNorm-ReLU-Linear-ReLU."""

    def __init__(self, in_dim: int, hidden: int):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.lin1 = nn.Linear(in_dim, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.lin2 = nn.Linear(hidden, hidden)

    def forward(self, h: Tensor, src: Tensor, dst: Tensor) -> Tensor:
        agg = scatter_sum(h.index_select(0, src), dst, h.size(0))
        x = torch.relu(self.bn(self.lin1((1 + self.eps) * h + agg)))
        return torch.relu(self.lin2(x))


class GinLike(nn.Module):
    """brec's built-in GIN: readout = sum pooling of every layer (the input included),
    concatenated, then Linear to d and BatchNorm1d (affine off, momentum 1)."""

    def __init__(self, in_dim: int = 1, hidden: int = 32, layers: int = 4, out_dim: int = 16):
        super().__init__()
        self.layers = nn.ModuleList([GinLayer(in_dim if i == 0 else hidden, hidden) for i in range(layers)])
        self.head = nn.Linear(in_dim + layers * hidden, out_dim)
        self.norm = nn.BatchNorm1d(out_dim, affine=False, momentum=1.0)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        src, dst = edge_index[0], edge_index[1]
        h = x
        pooled: List[Tensor] = [scatter_sum(h, batch, num_graphs)]
        for layer in self.layers:
            h = layer(h, src, dst)
            pooled.append(scatter_sum(h, batch, num_graphs))
        return self.norm(self.head(torch.cat(pooled, 1)))


def dense_batch(x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int):
    """Per graph an n_max x n_max adjacency (zero padded), the node features on the diagonal
    channels, and the mask of real node pairs: [B, F + 1, n, n] and [B, n, n]."""
    counts = torch.zeros(num_graphs, dtype=torch.long, device=x.device).index_add_(
        0, batch, torch.ones_like(batch))
    n = int(counts.max().item())
    first = torch.cumsum(counts, 0) - counts
    pos = torch.arange(x.size(0), device=x.device) - first[batch]  # position inside its graph
    adj = torch.zeros([num_graphs, n, n], dtype=x.dtype, device=x.device)
    src, dst = edge_index[0], edge_index[1]
    adj[batch[src], pos[src], pos[dst]] = 1.0
    valid = torch.zeros([num_graphs, n], dtype=torch.bool, device=x.device)
    valid[batch, pos] = True
    mask = valid.unsqueeze(2) & valid.unsqueeze(1)
    feat = torch.zeros([num_graphs, n, n, x.size(1)], dtype=x.dtype, device=x.device)
    feat[batch, pos, pos] = x  # node features on the diagonal
    dense = torch.cat([adj.unsqueeze(3), feat], 3).permute(0, 3, 1, 2)
    return dense, mask


class PpgnBlock(nn.Module):
    """Two 1x1-convolution MLPs multiplied as matrices per channel, skip by concatenation."""

    def __init__(self, in_ch: int, hidden: int):
        super().__init__()
        self.m1 = nn.Sequential(nn.Conv2d(in_ch, hidden, 1), nn.ReLU(), nn.Conv2d(hidden, hidden, 1), nn.ReLU())
        self.m2 = nn.Sequential(nn.Conv2d(in_ch, hidden, 1), nn.ReLU(), nn.Conv2d(hidden, hidden, 1), nn.ReLU())
        self.skip = nn.Conv2d(in_ch + hidden, hidden, 1)
        self.bn = nn.BatchNorm2d(hidden, affine=False, momentum=1.0)

    def forward(self, t: Tensor, mask: Tensor) -> Tensor:
        m = mask.unsqueeze(1).to(t.dtype)
        prod = torch.matmul(self.m1(t) * m, self.m2(t) * m)
        return self.bn(self.skip(torch.cat([t, prod], 1))) * m


class PpgnLike(nn.Module):
    """Blocks of PpgnBlock; after every block max pooling over the diagonal and the off-diagonal
    entries (real nodes only), a Linear to d, summed over blocks, then BatchNorm1d."""

    def __init__(self, in_dim: int = 1, hidden: int = 16, blocks: int = 3, out_dim: int = 16):
        super().__init__()
        self.blocks = nn.ModuleList([PpgnBlock(in_dim + 1 if i == 0 else hidden, hidden) for i in range(blocks)])
        self.heads = nn.ModuleList([nn.Linear(2 * hidden, out_dim) for _ in range(blocks)])
        self.norm = nn.BatchNorm1d(out_dim, affine=False, momentum=1.0)

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        t, mask = dense_batch(x, edge_index, batch, num_graphs)
        n = mask.size(1)
        eye = torch.eye(n, dtype=torch.bool, device=x.device).unsqueeze(0)
        diag, off = (mask & eye).unsqueeze(1), (mask & ~eye).unsqueeze(1)
        out = torch.zeros([num_graphs, self.norm.num_features], dtype=x.dtype, device=x.device)
        for block, head in zip(self.blocks, self.heads):
            t = block(t, mask)
            d = t.masked_fill(~diag, -1e30).amax(dim=(2, 3))
            o = t.masked_fill(~off, -1e30).amax(dim=(2, 3))
            o = torch.where(o > -1e29, o, torch.zeros_like(o))  # graphs with a single node
            out = out + head(torch.cat([d, o], 1))
        return self.norm(out)


class DegreeSequence(nn.Module):
    """A fixed invariant, no parameters: each graph's out_dim largest degrees, descending (zero
    padded). Like any 1-WL-bounded function it separates no BREC pair; brec does not train a module
    without parameters, so `brec eval` and the export path give it exactly the same embeddings."""

    def __init__(self, out_dim: int = 16):
        super().__init__()
        self.out_dim = out_dim

    def forward(self, x: Tensor, edge_index: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
        deg = torch.zeros(x.size(0), dtype=x.dtype, device=x.device).index_add_(
            0, edge_index[1], torch.ones(edge_index.size(1), dtype=x.dtype, device=x.device))
        counts = torch.zeros(num_graphs, dtype=torch.long, device=x.device).index_add_(0, batch, torch.ones_like(batch))
        width = max(int(counts.max().item()), self.out_dim)
        pos = torch.arange(x.size(0), device=x.device) - (torch.cumsum(counts, 0) - counts)[batch]
        dense = torch.full([num_graphs, width], -1.0, dtype=x.dtype, device=x.device)
        dense[batch, pos] = deg
        return torch.sort(dense, dim=1, descending=True)[0][:, : self.out_dim].clamp_min(0.0)


def save_scripted(model: nn.Module, path: str) -> None:
    """torch.jit.script(model).save(path): what brec eval --model torchscript:PATH loads."""
    torch.jit.script(model).save(path)
