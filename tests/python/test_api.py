"""The brec Python package against the real pipeline: the user's module trained and judged by the C++
library on BREC pairs, the same module through TorchScript, interface faults, interruption and
resume, and the command line's messages. Run by CTest (label unit) with PYTHONPATH=build/python and
BREC_BINARY set to the brec binary.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "examples"))
import brec  # noqa: E402
import models  # noqa: E402

BREC_BINARY = os.environ.get("BREC_BINARY", "")
FAST = {"epochs": 3, "quiet": True}  # enough to exercise training; decisions are not the point


def totals(summary, protocol="hotelling"):
    """(distinguished, reliability failures) of a run summary under a protocol."""
    t = summary["protocols"][protocol]["total"]
    return t["distinguished"], t["reliability_failures"]


def without_times(records):
    return [{k: v for k, v in r.items() if k not in ("seconds", "train_seconds")} for r in records]


class GinData(nn.Module):
    """GinLike behind PyG's forward(data)."""

    def __init__(self):
        super().__init__()
        self.inner = models.GinLike()

    def forward(self, data):
        return self.inner(data.x, data.edge_index, data.batch, data.num_graphs)


class WithReset(models.GinLike):
    """A module with its own reset_parameters (brec calls it per pair instead of its own rule)."""

    calls = 0

    def reset_parameters(self):
        WithReset.calls += 1
        for m in self.modules():
            if m is not self and hasattr(m, "reset_parameters"):
                m.reset_parameters()


class Faulty(models.GinLike):
    def __init__(self, fault):
        super().__init__()
        self.fault = fault

    def forward(self, x, edge_index, batch, num_graphs):
        out = super().forward(x, edge_index, batch, num_graphs)
        if self.fault == "shape":
            return out[:, :3]
        if self.fault == "dtype":
            return out.long()
        if self.fault == "raises":
            raise RuntimeError("boom in forward")
        if self.fault == "big_graphs" and x.shape[0] > 10 * num_graphs:
            raise RuntimeError("too many nodes")
        if self.fault == "nan":
            return out * float("nan")
        if self.fault == "detached":
            return out.detach()
        if self.fault == "not_a_tensor":
            return out.tolist()
        return out


class Interrupting(models.GinLike):
    """Raises KeyboardInterrupt (as Ctrl-C does) at its `at`-th forward pass; never when `at` is 0.
    The same class with any `at` is the same model (class source, repr and shapes)."""

    def __init__(self, at=0):
        super().__init__()
        self.at = at
        self.passes = 0

    def forward(self, x, edge_index, batch, num_graphs):
        self.passes += 1
        if self.passes == self.at:
            raise KeyboardInterrupt
        return super().forward(x, edge_index, batch, num_graphs)


class Slow(models.GinLike):
    """GinLike taking 10 ms more per forward pass, so that a run lasts long enough to interrupt."""

    def forward(self, x, edge_index, batch, num_graphs):
        time.sleep(0.01)
        return super().forward(x, edge_index, batch, num_graphs)


class Evaluate(unittest.TestCase):
    def test_gin_like_separates_no_basic_pair_and_fails_no_reliability_check(self):
        for model in (models.GinLike(), GinData()):
            summary, records = brec.evaluate(model, categories="basic", quiet=True)
            self.assertEqual(len(records), 60)
            for protocol in ("hotelling", "brec_reference"):
                self.assertEqual(totals(summary, protocol), (0, 0), type(model).__name__)
            self.assertTrue(all(r["model"] == "python:" + type(model).__name__ for r in records))

    def test_ppgn_like_separates_the_basic_pairs_as_built_in_ppgn(self):
        summary, _ = brec.evaluate(lambda: models.PpgnLike(), categories="basic", epochs=10, jobs=2, quiet=True)
        self.assertEqual(totals(summary), (60, 0))
        if BREC_BINARY:
            out = subprocess.run([BREC_BINARY, "eval", "--model", "ppgn", "--category", "basic", "--epochs", "10",
                                  "--jobs", "2", "--json", "--quiet"], check=True, capture_output=True,
                                 text=True).stdout
            builtin = json.loads(out.strip().splitlines()[-1])
            self.assertEqual(totals(builtin), (60, 0))

    @unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
    def test_cuda_reuses_the_module_and_decides_as_the_cpu(self):
        # The module goes to the GPU for its first pair and is reused for the next: each pair still
        # starts from weights drawn on the CPU from the pair's seed (by brec's rule, or by the
        # module's own reset_parameters), so the GPU decides as the CPU.
        for make in (models.PpgnLike, WithReset):
            _, cpu = brec.evaluate(make(), ids="0-3", epochs=5, quiet=True)
            _, gpu = brec.evaluate(make(), ids="0-3", epochs=5, device="cuda", quiet=True)
            self.assertEqual(len(gpu), 4)
            self.assertEqual([r["protocols"]["hotelling"]["distinguished"] for r in gpu],
                             [r["protocols"]["hotelling"]["distinguished"] for r in cpu], make.__name__)

    def test_own_reset_parameters_is_called_per_pair(self):
        WithReset.calls = 0
        brec.evaluate(WithReset(), ids="0-2", **FAST)
        self.assertGreaterEqual(WithReset.calls, 3)  # the probe, then once per pair

    def test_interface_faults_raise_before_any_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.jsonl")
            cases = {"shape": "shape [4, 3] for 4 graphs; expected [4, 16]", "dtype": "expected floating point",
                     "raises": "boom in forward", "nan": "NaN or infinite", "detached": "does not depend",
                     "not_a_tensor": "not a torch.Tensor"}
            for fault, message in cases.items():
                with self.assertRaises(ValueError, msg=fault) as e:
                    brec.evaluate(Faulty(fault), ids="0-1", out=out, **FAST)
                self.assertIn(message, str(e.exception), fault)
                self.assertFalse(os.path.exists(out), fault)
            # A fault the probe's small graphs do not show: raised on the pair, which it names.
            with self.assertRaisesRegex(ValueError, "pair 110: python:Faulty: forward raised on 32 graphs: RuntimeError: too many nodes$"):
                brec.evaluate(Faulty("big_graphs"), ids="0,110", out=out, **FAST)  # 10 and 16 vertices
            self.assertFalse(os.path.exists(out))  # the larger pair runs first
            with self.assertRaisesRegex(ValueError, "no parameters"):
                brec.evaluate(models.DegreeSequence(), ids="0-1", out=out, **FAST)
            with self.assertRaisesRegex(TypeError, "forward takes 2 arguments"):
                class TwoArgs(nn.Module):
                    def __init__(self):
                        super().__init__()
                        self.w = nn.Parameter(torch.ones(1))

                    def forward(self, x, edge_index):
                        return x

                brec.evaluate(TwoArgs(), ids="0-1", **FAST)
            self.assertFalse(os.path.exists(out))

    def test_interrupt_then_resume_equals_an_uninterrupted_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            whole = os.path.join(tmp, "whole.jsonl")
            _, expected = brec.evaluate(Interrupting(), ids="0-5", out=whole, **FAST)
            cut = os.path.join(tmp, "cut.jsonl")
            # The probe's 2 passes, then per pair 3 epochs of 2 batches and 4 batches judged.
            with self.assertRaises(KeyboardInterrupt):
                brec.evaluate(Interrupting(at=25), ids="0-5", out=cut, **FAST)
            with open(cut) as f:
                kept = [json.loads(line) for line in f]
            self.assertGreater(len(kept), 0)
            self.assertLess(len(kept), 6)
            with self.assertRaisesRegex(ValueError, "already holds results; pass resume=True"):
                brec.evaluate(Interrupting(), ids="0-5", out=cut, **FAST)
            _, resumed = brec.evaluate(Interrupting(), ids="0-5", out=cut, resume=True, **FAST)
            with open(cut) as f:
                in_file = [json.loads(line) for line in f]
            self.assertEqual(without_times(sorted(in_file, key=lambda r: r["id"])), without_times(expected))
            self.assertEqual(without_times(resumed), without_times(expected))

    def test_ctrl_c_keeps_whole_records_and_resume_finishes_identically(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, expected = brec.evaluate(Slow(), ids="0-9", **FAST)
            out = os.path.join(tmp, "r.jsonl")
            timer = threading.Timer(0.6, lambda: os.kill(os.getpid(), signal.SIGINT))
            timer.start()
            try:
                with self.assertRaises(KeyboardInterrupt):
                    brec.evaluate(Slow(), ids="0-9", out=out, **FAST)  # about 1.5 s
            finally:
                timer.cancel()
            kept = []
            if os.path.exists(out):  # a run interrupted before its first record writes no file
                with open(out) as f:
                    kept = [json.loads(line) for line in f]  # whole lines only
            self.assertLess(len(kept), 10)
            _, resumed = brec.evaluate(Slow(), ids="0-9", out=out, resume=True, **FAST)
            self.assertEqual(without_times(resumed), without_times(expected))

    def test_jobs_change_no_result_and_need_a_factory(self):
        _, one = brec.evaluate(models.GinLike(), ids="0-3", **FAST)
        _, two = brec.evaluate(lambda: models.GinLike(), ids="0-3", jobs=2, **FAST)
        self.assertEqual(without_times(one), without_times(two))
        with self.assertRaisesRegex(ValueError, "jobs > 1 needs a factory"):
            brec.evaluate(models.GinLike(), ids="0-3", jobs=2, **FAST)
        widths = iter([32, 16, 16, 16])  # the second worker's module is another model
        with self.assertRaisesRegex(ValueError, "the factory's modules differ in their parameters"):
            brec.evaluate(lambda: models.GinLike(hidden=next(widths)), ids="0-3", jobs=2, **FAST)

    def test_bad_arguments_raise_with_the_command_lines_messages(self):
        with self.assertRaisesRegex(ValueError, "unknown category 'nope'"):
            brec.evaluate(models.GinLike(), categories="nope", **FAST)
        with self.assertRaisesRegex(ValueError, "the batch size must be an even number"):
            brec.evaluate(models.GinLike(), ids="0", batch=3, **FAST)
        with self.assertRaisesRegex(ValueError, "q \\(relabelings per graph\\) must exceed"):
            brec.evaluate(models.GinLike(), ids="0", q=8, **FAST)
        with self.assertRaises(OSError):
            brec.evaluate(models.GinLike(), dataset="/nonexistent/pairs.tsv", **FAST)
        with self.assertRaisesRegex(ValueError, "resume=True needs out=FILE.jsonl"):
            brec.evaluate(models.GinLike(), ids="0", resume=True, **FAST)

    def test_summary_file_junit_and_baseline_check(self):
        with tempfile.TemporaryDirectory() as tmp:
            strong, weak = os.path.join(tmp, "ppgn.jsonl"), os.path.join(tmp, "gin.jsonl")
            brec.evaluate(models.PpgnLike(), ids="0-3", out=strong, epochs=10, quiet=True)
            junit = os.path.join(tmp, "gin.xml")
            summary, _ = brec.evaluate(models.GinLike(), ids="0-3", out=weak, junit=junit,
                                       baseline=strong + ".summary.json", **FAST)
            self.assertEqual(summary["regressions"], ["basic: distinguished 0 < 4 (hotelling)"])
            with open(junit) as f:
                self.assertEqual(f.read().count("<testcase"), 4)
            summary, _ = brec.evaluate(models.GinLike(), ids="0-3", baseline=weak + ".summary.json", **FAST)
            self.assertEqual(summary["regressions"], [])
            with self.assertRaisesRegex(ValueError, "not JSON"):
                brec.evaluate(models.GinLike(), ids="0-3", baseline=junit, **FAST)

    def test_settings_differ_between_two_modules_so_resume_never_mixes_them(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.jsonl")
            brec.evaluate(models.GinLike(), ids="0", out=out, **FAST)
            with self.assertRaisesRegex(ValueError, "a record of other settings"):
                brec.evaluate(models.GinLike(hidden=16), ids="0-1", out=out, resume=True, **FAST)


@unittest.skipUnless(BREC_BINARY, "needs the brec binary (BREC_BINARY)")
class SameAsTorchScript(unittest.TestCase):
    def test_python_and_torchscript_paths_decide_alike(self):
        ids = "0-59,60-69,160-169"
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "ppgn_like.pt")
            models.save_scripted(models.PpgnLike(), path)
            out = subprocess.run([BREC_BINARY, "eval", "--model", "torchscript:" + path, "--pairs", ids,
                                  "--epochs", "5", "--json", "--quiet"], check=True, capture_output=True,
                                 text=True).stdout.strip().splitlines()
        scripted = {r["id"]: r for r in map(json.loads, out[:-1])}
        _, records = brec.evaluate(models.PpgnLike(), ids=ids, epochs=5, quiet=True)
        near, differ = [], []
        for r in records:
            s = scripted[r["id"]]
            for protocol in ("hotelling", "brec_reference"):
                a, b = r["protocols"][protocol], s["protocols"][protocol]
                close = any(abs(x["t2_test"] - x["threshold"]) <= 0.01 * x["threshold"] for x in (a, b))
                if (a["distinguished"], a["reliable"]) != (b["distinguished"], b["reliable"]):
                    (near if close else differ).append((r["id"], protocol))
        self.assertEqual(differ, [], "decisions differ away from the threshold")
        if near:
            print("pairs within 1 % of the threshold that decide differently:", near, file=sys.stderr)


class Data(unittest.TestCase):
    def test_pairs_groups_and_rpc(self):
        ps = brec.pairs()
        self.assertEqual(len(ps), 400)
        self.assertEqual([p["id"] for p in brec.pairs(categories="basic")], list(range(60)))
        p = brec.pairs(ids="5")[0]
        a = p["a"]
        self.assertEqual(a["edge_index"].shape[0], 2)
        self.assertEqual(a["edge_index"].shape[1] % 2, 0)
        self.assertTrue(bool((a["edge_index"] < a["num_nodes"]).all()))
        g = brec.groups(5, seed=100, q=32)
        self.assertEqual(len(g["traintest"]), 64)
        self.assertEqual(len(g["reliability"]), 64)
        self.assertEqual(g["traintest"][0]["graph6"], p["a"]["graph6"])  # copy 1 is the original
        # Embeddings of a graph invariant: identical graphs give T² 0; a shift separates.
        same = torch.ones(64, 4) + 1e-3 * torch.randn(64, 4, generator=torch.Generator().manual_seed(1))
        r = brec.rpc(same, same)
        self.assertFalse(r["hotelling"]["distinguished"])
        shifted = same.clone()
        shifted[1::2] += 1.0
        r = brec.rpc(shifted, same)
        self.assertTrue(r["hotelling"]["distinguished"])
        self.assertTrue(r["hotelling"]["reliable"])
        with self.assertRaisesRegex(ValueError, "2-D"):
            brec.rpc(torch.ones(4), same)

    def test_brec_kernels_compute_torchs_products_and_restore_them(self):
        g = torch.Generator().manual_seed(3)
        a, b = torch.randn(2, 8, 6, 6, generator=g), torch.randn(2, 8, 6, 6, generator=g)
        x, w = torch.randn(2, 3, 5, 5, generator=g), torch.randn(4, 3, 1, 1, generator=g)
        conv = nn.Conv2d(3, 4, 1)
        want = (torch.matmul(a, b), a @ b[0, 0], torch.bmm(a[0], b[0]), nn.functional.conv2d(x, w, stride=1), conv(x))
        matmul = torch.matmul
        with brec.brec_kernels():
            self.assertIsNot(torch.matmul, matmul)
            got = (torch.matmul(a, b), a @ b[0, 0], torch.bmm(a[0], b[0]), nn.functional.conv2d(x, w, stride=1), conv(x))
        self.assertIs(torch.matmul, matmul)
        for g_, w_ in zip(got, want):
            self.assertTrue(torch.allclose(g_, w_, atol=1e-5))

    def test_wl(self):
        summary, records = brec.wl("1wl", categories="basic")
        self.assertEqual(len(records), 60)
        self.assertEqual(summary["total"]["distinguished"], 0)
        summary, _ = brec.wl("3wl", ids="0-59")
        self.assertEqual(summary["total"]["distinguished"], 60)
        _, records = brec.certify(ids="0-2")
        self.assertEqual([r["level"] for r in records], ["2fwl", "2fwl", "2fwl"])  # Basic: 3-WL separates
        self.assertEqual(brec.pairs(ids="300")[0]["group"], "CFI")


if __name__ == "__main__":
    unittest.main()
