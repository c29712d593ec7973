"""brec from Python: your own PyTorch or PyG model judged by brec's trainer and RPC test.

    import brec
    summary, records = brec.evaluate(MyGnn(), name="my_gnn", categories=["basic"])
    print(summary["total"])

The work is done by brec's C++ library (the same code as `brec eval`); Python runs only the
module's forward passes. See help(brec.evaluate).
"""

import contextlib
import hashlib
import inspect
import json
import types

import torch

from . import _brec

__all__ = ["evaluate", "pairs", "groups", "rpc", "wl", "certify", "brec_kernels"]


def _csv(values):
    if values is None:
        return ""
    if isinstance(values, str):
        return values
    return ",".join(str(v) for v in values)


def _list(values):
    if values is None:
        return []
    if isinstance(values, str):
        return [v for v in values.split(",") if v]
    return [str(v) for v in values]


def pairs(dataset=None, categories=None, ids=None):
    """The pairs of a dataset brec reads (default: BREC v3's 400 pairs), in file order.

    Each pair is a dict: id, category (fine), group (Table 2's: Basic, Regular, Extension, CFI), and
    graphs "a" and "b", each with num_nodes, edge_index
    (a [2, 2m] int64 tensor, both directions of every edge) and graph6. `categories` takes
    category or group names ("basic", "regular", ...), `ids` ranges such as "0-59,260".
    """
    return _brec.pairs(dataset or "", _list(categories), _csv(ids))


def groups(pair_id, seed=100, q=32, dataset=None):
    """The graphs brec judges pair `pair_id` on for `seed`: "traintest" (2q graphs G1, H1, G2,
    H2, ...; copy 1 is the original) and "reliability" (2q relabelings of one graph), each graph as
    in pairs(). These are exactly the graphs brec.evaluate and `brec eval` train and test on."""
    return _brec.groups(dataset or "", int(pair_id), int(seed), int(q))


def rpc(test, reliability, alpha=0.05, noise_floor=1e-5):
    """The RPC decision from embeddings computed any way (no training): `test` holds the 2q
    embeddings f(G1), f(H1), f(G2), ... of a pair's traintest group, `reliability` the 2q of its
    reliability group (both [2q, d] tensors or arrays, q > d). Returns both protocols' T² values,
    thresholds and decisions ("hotelling" and "brec_reference")."""
    return _brec.rpc(torch.as_tensor(test), torch.as_tensor(reliability), float(alpha), float(noise_floor))


def wl(method="1wl", dataset=None, categories=None, ids=None, reliability=False, seed=0, jobs=1):
    """A Weisfeiler-Leman-family test (`brec wl --method`) on pairs: returns (summary, records)."""
    summary, records = _brec.wl(method, dataset or "", _list(categories), _csv(ids), bool(reliability), int(seed),
                                int(jobs))
    return json.loads(summary), [json.loads(r) for r in records]


def certify(dataset=None, categories=None, ids=None, max_fwl=3, tests=None, jobs=1):
    """Each pair's hardness certificate (`brec certify`): the lowest k-FWL level (1-WL, 2-FWL,
    3-FWL) that separates it, or "beyond"; `tests` adds WL methods such as "gswl:6". Returns
    (summary, records)."""
    summary, records = _brec.certify(dataset or "", _list(categories), _csv(ids), int(max_fwl), _list(tests),
                                     int(jobs))
    return json.loads(summary), [json.loads(r) for r in records]


def _forward_style(module):
    """True when forward takes one argument (forward(data), PyG style), False for the four of
    forward(x, edge_index, batch, num_graphs)."""
    try:
        params = [p for p in inspect.signature(module.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return False
    if len(params) == 1:
        return True
    if len(params) >= 4:
        return False
    raise TypeError(f"{type(module).__name__}.forward takes {len(params)} arguments; expected "
                    "forward(x, edge_index, batch, num_graphs) or forward(data)")


def _module_hash(module):
    """16 hex digits of the module's class source, repr and parameter shapes: part of the settings
    id, so that resuming never mixes two models."""
    cls = type(module)
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        source = cls.__module__ + "." + cls.__qualname__
    shapes = [(n, tuple(p.shape), str(p.dtype)) for n, p in module.named_parameters()]
    text = json.dumps([source, repr(module), shapes], default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _data_maker():
    """Makes the batch of forward(data): torch_geometric.data.Batch where PyG is importable."""
    try:
        from torch_geometric.data import Batch  # noqa: PLC0415 (optional)
    except ImportError:
        Batch = None

    def make(x, edge_index, batch, num_graphs, ptr):
        if Batch is not None:
            data = Batch(x=x, edge_index=edge_index, batch=batch, ptr=ptr)
            data._num_graphs = num_graphs
            return data
        return types.SimpleNamespace(x=x, edge_index=edge_index, batch=batch, num_graphs=num_graphs, ptr=ptr,
                                     num_nodes=x.shape[0])

    return make


def _pair(v):
    return [v, v] if isinstance(v, int) else list(v)


@contextlib.contextmanager
def brec_kernels():
    """Inside this block torch.matmul, torch.bmm, Tensor.matmul, `a @ b` and F.conv2d (so nn.Conv2d)
    run brec's CPU kernels where they apply: a batch of small matrices as one single-threaded sgemm
    per matrix in parallel over the batch, and 1x1 convolutions as matrix products, with one autograd
    node each; everywhere else (CUDA, other dtypes, other kernels) torch's own operation runs. These
    are the kernels `brec eval --model torchscript:FILE` rewrites a module's products to (LibTorch's
    CPU matmul on [B, C, n, n] makes one multi-threaded BLAS call per matrix). brec.evaluate uses
    them unless kernels="torch"."""
    ops = torch.ops.brec
    F = torch.nn.functional
    saved = (torch.matmul, torch.bmm, torch.Tensor.matmul, torch.Tensor.__matmul__, F.conv2d)
    conv2d_torch = F.conv2d

    def matmul(a, b, *, out=None):
        return ops.matmul(a, b) if out is None else saved[0](a, b, out=out)

    def bmm(a, b, *, out=None):
        return ops.bmm(a, b) if out is None else saved[1](a, b, out=out)

    def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        if isinstance(padding, str):
            return conv2d_torch(input, weight, bias, stride, padding, dilation, groups)
        return ops.conv2d(input, weight, bias, _pair(stride), _pair(padding), _pair(dilation), groups)

    torch.matmul, torch.bmm, F.conv2d = matmul, bmm, conv2d
    torch.Tensor.matmul = torch.Tensor.__matmul__ = matmul
    try:
        yield
    finally:
        torch.matmul, torch.bmm, torch.Tensor.matmul, torch.Tensor.__matmul__, F.conv2d = saved


def evaluate(model, *, name=None, dataset=None, categories=None, ids=None, seeds=(100,), epochs=None,
             lr=None, weight_decay=None, batch=None, loss_threshold=None, q=32, out_dim=16, alpha=0.05,
             method="rpc", protocol="hotelling", input_features="ones", device="cpu", jobs=1, torch_threads=0,
             train=True, out=None, resume=False, junit=None, baseline=None, kernels="brec", quiet=False):
    """Trains and judges `model` on BREC pairs exactly as `brec eval` does: per pair fresh weights,
    Siamese training (cosine loss, Adam, plateau schedule, early stop) and the RPC test under both
    protocols with the reliability check, for every seed.

    model: a torch.nn.Module, or a callable returning a fresh one (needed for jobs > 1: one module
      per worker). forward(x, edge_index, batch, num_graphs) -> [num_graphs, out_dim], or
      forward(data) with data.x, data.edge_index, data.batch, data.num_graphs, data.ptr (a PyG
      Batch when PyG is importable). x is a column of ones (input_features "degree": the degree;
      "label": one-hot node labels).
      Fresh weights per pair: the module's own reset_parameters() when its class defines one (torch's
      generator seeded from the pair), else brec's rule for every parameter.
    name: the records' model name ("python:NAME"; default the class name).
    categories, ids, dataset: the pairs (as brec.pairs); seeds: a list or "100,200" / "0-4".
    epochs, lr, weight_decay, batch, loss_threshold: training (default: GIN's row of brec's registry).
    out: a JSONL results file written as pairs finish (and OUT.summary.json); resume=True continues
      an interrupted run (Ctrl-C keeps whole records) and finishes identically.
    junit: a JUnit XML file of the best reliable seed's pairs (a reliability failure fails its case).
    baseline: an earlier run's summary file (a CI regression check): summary["regressions"] lists
      the categories that now distinguish fewer pairs or fail more reliability checks (empty: none).

    kernels: "brec" (default) runs the module's matrix products and 1x1 convolutions on brec's CPU
      kernels (see brec_kernels), as the TorchScript path does; "torch" leaves torch's own.

    Returns (summary, records): the run summary (dict, as `brec eval --json` prints) and one dict
    per pair and seed. Interface faults (wrong output shape or dtype, a forward that raises, NaN on
    the probe graphs, no parameters reached by the output) raise ValueError before any record.
    """
    factory = None
    if isinstance(model, torch.nn.Module):
        module = model
    elif callable(model):
        factory = model
        module = factory()
        if not isinstance(module, torch.nn.Module):
            raise TypeError(f"the factory returned {type(module).__name__}, not a torch.nn.Module")
    else:
        raise TypeError(f"model must be a torch.nn.Module or a callable returning one, not {type(model).__name__}")
    if jobs > 1 and factory is None:
        raise ValueError("jobs > 1 needs a factory (a fresh module per worker), e.g. model=lambda: MyGnn()")
    if not any(True for _ in module.parameters()):
        raise ValueError(f"{type(module).__name__} has no parameters to train")
    data_style = _forward_style(module)
    own_reset = callable(getattr(type(module), "reset_parameters", None))
    label = "python:" + (name or type(module).__name__)
    options = {
        "dataset": dataset or "", "categories": _list(categories), "ids": _csv(ids),
        "seeds": _csv([seeds] if isinstance(seeds, int) else seeds), "epochs": epochs, "lr": lr,
        "weight_decay": weight_decay, "batch": batch, "loss_threshold": loss_threshold, "q": int(q),
        "out_dim": int(out_dim), "alpha": float(alpha), "method": method, "protocol": protocol,
        "input_features": input_features, "device": device, "jobs": int(jobs), "torch_threads": int(torch_threads),
        "train": bool(train), "out": out or "", "resume": bool(resume), "junit": junit or "",
        "baseline": baseline or "", "quiet": bool(quiet),
    }
    if kernels not in ("brec", "torch"):
        raise ValueError(f"kernels must be brec or torch, not {kernels!r}")
    threads = torch.get_num_threads()
    try:
        with brec_kernels() if kernels == "brec" else contextlib.nullcontext():
            summary, records = _brec.evaluate(module, factory, data_style, own_reset, label, _module_hash(module),
                                              _data_maker(), options)
    finally:
        torch.set_num_threads(threads)
    return json.loads(summary), [json.loads(r) for r in records]
