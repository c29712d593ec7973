#!/usr/bin/env python3
"""Kill-and-resume check of brec's long-running commands, with the real binaries.

For every case (brec eval with several models, certify, generate, classify with the WL kernel
and with GIN, attack train, attack run, attack ood) it makes an uninterrupted reference run, then runs the same command again and
stops it once with SIGINT (which must exit 130 and leave whole records only), SIGKILLs it at
random moments (drawn from a seeded RNG), resumes it each time, and resumes it until it
completes. The final files are compared byte for byte with the reference.

Wall-clock timings are the one thing that differs between two runs: every JSON member whose
name ends in "seconds" (a record's "seconds", "train_seconds", a certify step's "seconds",
a summary's "wall_seconds") has its value replaced by 0 in both runs before comparing;
nothing else is touched. Everything else (record order, floats, counts) must be identical.

  python3 scripts/kill_resume.py --brec build/bin/brec            # the full check (minutes)
  python3 scripts/kill_resume.py --brec build/bin/brec --quick    # the CTest version (~1 min)

Exit status 0 when every case is identical and every check passed, 1 otherwise.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TIMING = re.compile(rb'("[A-Za-z_]*seconds": ?)-?[0-9][0-9.eE+-]*')


def normalise(data):
    """The bytes of a result file with the value of every *seconds member set to 0."""
    return TIMING.sub(rb"\g<1>0", data)


class Case:
    """One command: argv builders for a fresh and a resumed run, and the outputs to compare."""

    def __init__(self, name, args, outputs, resume_flag="--resume", kills=3, prepare=None, check_lines=None):
        self.name = name
        self.args = args  # function(workdir) -> argv after the brec binary
        self.outputs = outputs  # paths relative to the workdir: files, or directories (every file)
        self.resume_flag = resume_flag  # None: the command is all-or-nothing, rerun as is
        self.kills = kills
        self.prepare = prepare  # function(workdir), e.g. copy trained models in
        self.check_lines = check_lines  # JSONL outputs whose lines must stay whole after a SIGINT


def files_of(workdir, outputs):
    found = {}
    for rel in outputs:
        path = os.path.join(workdir, rel)
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                found[os.path.join(rel, name)] = os.path.join(path, name)
        elif os.path.exists(path):
            found[rel] = path
    return found


def compare(ref_dir, run_dir, outputs):
    """Names of outputs that differ (after normalising timings) or exist on one side only."""
    ref, run = files_of(ref_dir, outputs), files_of(run_dir, outputs)
    bad = sorted(set(ref) ^ set(run))
    for rel in sorted(set(ref) & set(run)):
        with open(ref[rel], "rb") as a, open(run[rel], "rb") as b:
            if normalise(a.read()) != normalise(b.read()):
                bad.append(rel)
    return bad


def jsonl_problems(path):
    """Torn or non-object lines, and records that occur twice, in a JSONL file."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = f.read()
    problems = []
    if data and not data.endswith(b"\n"):
        problems.append("last line without newline")
    seen = set()
    for k, line in enumerate(data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            problems.append("line %d is not JSON" % (k + 1))
            continue
        key = normalise(line)
        if key in seen:
            problems.append("line %d repeats a record" % (k + 1))
        seen.add(key)
        if not isinstance(obj, dict):
            problems.append("line %d is not an object" % (k + 1))
    return problems


def line_count(path):
    if not os.path.exists(path):
        return 0
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def start(brec, argv, cwd, log):
    return subprocess.Popen([brec] + argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def run_to_end(brec, argv, cwd, log_path):
    with open(log_path, "ab") as log:
        t0 = time.monotonic()
        code = subprocess.call([brec] + argv, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
        return code, time.monotonic() - t0


def interrupted_run(brec, argv, cwd, log_path, ready, delay, sig):
    """Starts the command and sends `sig` `delay` seconds after ready() first holds; returns
    (exit code, signalled, seconds the run lasted)."""
    with open(log_path, "ab") as log:
        t0 = time.monotonic()
        p = start(brec, argv, cwd, log)
        fire = None
        while True:
            try:
                p.wait(timeout=0.01)
                return p.returncode, False, time.monotonic() - t0
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if fire is None and ready():
                fire = now + delay
            if fire is not None and now >= fire:
                break
        os.killpg(p.pid, sig)
        return p.wait(), True, time.monotonic() - t0


def run_case(case, brec, root, rng, verbose):
    ref_dir = os.path.join(root, case.name, "reference")
    run_dir = os.path.join(root, case.name, "killed")
    for d in (ref_dir, run_dir):
        os.makedirs(d)
        if case.prepare:
            case.prepare(d)
    log = os.path.join(root, case.name, "log.txt")
    code, ref_seconds = run_to_end(brec, case.args(ref_dir), ref_dir, log)
    if code != 0:
        return {"name": case.name, "error": "reference run failed (exit %d), see %s" % (code, log)}

    row = {"name": case.name, "reference_s": ref_seconds, "kills": 0, "sigint": "-", "resumes": 0, "problems": []}
    started = False

    def argv():
        resumed = started and case.resume_flag
        return case.args(run_dir) + ([case.resume_flag] if resumed else [])

    def progress(d):
        """Units of work a run in `d` has kept: records, or trained models; None for a command
        that writes everything at its end."""
        if case.check_lines:
            return line_count(os.path.join(d, case.check_lines[0]))
        folder = os.path.join(d, "models")
        if case.name == "attack-train":
            return sum(n.endswith(".json") for n in os.listdir(folder)) if os.path.isdir(folder) else 0
        return None

    # Moments drawn from the seeded RNG, by progress rather than by clock (the machine's load
    # varies): a signal waits until the run has kept a random number of further records (between
    # one and half of those left), then for a random part of one record's time, so that it lands
    # inside a pair. The SIGINT comes first; a command without records is signalled at a random
    # moment of the reference run's length.
    total = progress(ref_dir)
    plan = [signal.SIGINT] + [signal.SIGKILL] * case.kills
    for sig in plan:
        if started:
            row["resumes"] += 1
        if total is None:
            target = None
            delay = rng.uniform(0.1, 0.5) * ref_seconds
            ready = lambda: True  # noqa: E731
        else:
            done = progress(run_dir)
            target = done + rng.randint(1, max(1, (total - done) // 2))
            delay = rng.uniform(0.0, 1.0) * ref_seconds / max(1, total)
            ready = lambda t=target: progress(run_dir) >= t  # noqa: E731
        code, signalled, lasted = interrupted_run(brec, argv(), run_dir, log, ready, delay, sig)
        started = True
        if verbose:
            where = "at %.2f s" % lasted if target is None else "%.2f s after record %d (at %.2f s)" % (
                delay, target, lasted)
            print("  %s: %s %s -> exit %s" % (case.name, signal.Signals(sig).name, where,
                                              code if signalled else "%d (finished first)" % code))
        if not signalled:
            if code != 0:
                row["problems"].append("a run exited %d" % code)
            break
        if sig == signal.SIGKILL:
            row["kills"] += 1
        else:
            row["sigint"] = str(code)
            if code != 130:
                row["problems"].append("SIGINT gave exit %d, not 130" % code)
            # A clean stop: whole records only, and no file of the end of a run (summaries).
            for rel in case.check_lines or []:
                row["problems"] += ["after SIGINT: %s: %s" % (rel, p)
                                    for p in jsonl_problems(os.path.join(run_dir, rel))]
            row["problems"] += ["after SIGINT: %s exists" % rel for rel in case.outputs
                                if rel.endswith(".summary.json") and os.path.exists(os.path.join(run_dir, rel))]
        for rel in case.check_lines or []:
            for p in jsonl_problems(os.path.join(run_dir, rel)):
                if p != "last line without newline" and "not JSON" not in p:  # a torn tail is repaired on resume
                    row["problems"].append("after %s: %s: %s" % (signal.Signals(sig).name, rel, p))
    else:
        row["resumes"] += 1
        code, _ = run_to_end(brec, argv(), run_dir, log)
        if code != 0:
            row["problems"].append("the final resume exited %d" % code)
    differ = compare(ref_dir, run_dir, case.outputs)
    row["identical"] = not differ
    row["problems"] += ["differs: " + d for d in differ]
    row["compared"] = len(files_of(ref_dir, case.outputs))
    return row


def cases(args):
    pairs = {"gin": "0-9,60-64,160-164", "ppgn": "0-39,60-69,160-169", "ngnn": "0-59,60-109",
             "ds_gnn": "0-1"}
    seeds = "1,2"
    if args.quick:
        pairs = {"ppgn": "0-19,60-64,160-164"}
    out = []
    for model, ids in pairs.items():
        if args.models and model not in args.models.split(","):
            continue
        out.append(Case("eval-" + model,
                        lambda d, m=model, i=ids: ["eval", "--model", m, "--pairs", i, "--seeds", seeds, "--jobs",
                                                   "1", "--quiet", "--out", "eval.jsonl"],
                        ["eval.jsonl", "eval.jsonl.summary.json"], kills=2 if args.quick else 3,
                        check_lines=["eval.jsonl"]))
    # CFI pairs that only 3-FWL separates (0.05-0.1 s each on the orbits of their automorphism groups,
    # 0.6-2 s on every tuple), then small Basic ones.
    cert_pairs = "320,321,323,325-327,329,0-9" if not args.quick else "320,321,325,326,0-4"
    out.append(Case("certify", lambda d: ["certify", "--pairs", cert_pairs, "--quiet", "--out", "certify.jsonl"],
                    ["certify.jsonl"], kills=2 if args.quick else 3, check_lines=["certify.jsonl"]))
    if not args.quick:
        out.append(Case("generate", lambda d: ["generate", "--out", "gen", "--seed", "1", "--category",
                                               "strongly_regular", "--pairs", "20", "--quiet"],
                        ["gen"], resume_flag=None))
    n_seeds = 20 if args.quick else 60
    mutag = os.path.join(args.repo, "datasets", "tu", "MUTAG")
    out.append(Case("classify", lambda d: ["classify", mutag, "--model", "wl", "--seeds",
                                           ",".join(str(s) for s in range(n_seeds)), "--quiet", "--out",
                                           "classify.jsonl", "--csv", "classify.csv", "--markdown", "classify.md"],
                    ["classify.jsonl", "classify.csv", "classify.md"], kills=2 if args.quick else 3,
                    check_lines=["classify.jsonl"]))
    if not args.quick:
        out.append(Case("classify-gin", lambda d: ["classify", mutag, "--model", "gin", "--seeds", "0,1",
                                                   "--folds", "4", "--epochs", "20", "--warmup", "5", "--quiet",
                                                   "--out", "classify.jsonl", "--csv", "classify.csv"],
                        ["classify.jsonl", "classify.csv"], check_lines=["classify.jsonl"]))
        count_dir = os.path.join(args.work, "counting")

        def train_args(d):
            return ["attack", "train", "--data", count_dir, "--model", "gin", "--pattern", "triangle", "--seeds",
                    "0-2", "--epochs", "300", "--patience", "50", "--out", "models", "--quiet"]

        def with_models(d):
            shutil.copytree(os.path.join(args.work, "models"), os.path.join(d, "models"))

        out.append(Case("attack-train", train_args, ["models"]))
        # Every row of attack ood trains a model first: its signals land inside the training.
        out.append(Case("attack-ood", lambda d: ["attack", "ood", "--in", count_dir, "--ood",
                                                 os.path.join(args.work, "counting-ood"), "--model", "gin",
                                                 "--seeds", "0-1", "--epochs", "60", "--patience", "20", "--out",
                                                 "ood", "--quiet"],
                        ["ood/ood.jsonl", "ood/ood.csv", "ood/in", "ood/scratch", "ood/head"],
                        check_lines=["ood/ood.jsonl"]))
        out.append(Case("attack-run", lambda d: ["attack", "run", "--data", count_dir, "--models", "models",
                                                 "--model", "gin", "--pattern", "triangle", "--seeds", "0-1",
                                                 "--graphs", "100", "--out", "attack.jsonl", "--quiet"],
                        ["attack.jsonl", "attack.jsonl.summary.json", "attack.jsonl.csv", "attack.jsonl.svg"],
                        prepare=with_models, check_lines=["attack.jsonl"]))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--brec", default=os.path.join(here, "..", "build", "bin", "brec"), help="the brec binary")
    ap.add_argument("--seed", type=int, default=1, help="seed of the kill times")
    ap.add_argument("--quick", action="store_true", help="the short version (certify, classify, eval ppgn)")
    ap.add_argument("--only", help="comma-separated case names (eval-gin, certify, generate, ...)")
    ap.add_argument("--models", help="eval models to run (default gin,ppgn,ngnn)")
    ap.add_argument("--work", help="working directory (default: a temporary one, removed unless --keep)")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per interruption")
    args = ap.parse_args()
    args.repo = os.path.abspath(os.path.join(here, ".."))
    brec = os.path.abspath(args.brec)
    if not os.access(brec, os.X_OK):
        print("kill_resume: %s is not an executable brec binary" % brec, file=sys.stderr)
        return 2
    if args.models is None:
        args.models = "gin,ppgn,ngnn"
    args.work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="brec-kill-resume-")
    os.makedirs(args.work, exist_ok=True)
    rng = random.Random(args.seed)
    todo = [c for c in cases(args) if not args.only or c.name in args.only.split(",")]
    if not os.path.exists(os.path.join(os.path.dirname(brec), "brec-eval")):
        print("kill_resume: no brec-eval next to %s (built without LibTorch): eval and attack skipped" % brec)
        todo = [c for c in todo if not c.name.startswith(("eval", "attack", "classify-gin"))]
    if any(c.name.startswith("attack") for c in todo):
        # The counting data and the models the attack run starts from (made once, not compared).
        for argv in (["count", "--generate", "er", "--graphs", "1000", "--seed", "0", "--out", "counting", "--quiet"],
                     ["count", "--generate", "er-ood", "--graphs", "600", "--seed", "0", "--out", "counting-ood",
                      "--quiet"],
                     ["attack", "train", "--data", "counting", "--model", "gin", "--pattern", "triangle", "--seeds",
                      "0-1", "--epochs", "300", "--patience", "50", "--out", "models", "--quiet"]):
            if subprocess.call([brec] + argv, cwd=args.work, stdout=subprocess.DEVNULL) != 0:
                print("kill_resume: setup failed: brec " + " ".join(argv), file=sys.stderr)
                return 1
    rows = []
    for case in todo:
        row = run_case(case, brec, args.work, rng, args.verbose)
        rows.append(row)
        if "error" in row:
            print("%-14s ERROR %s" % (case.name, row["error"]), flush=True)
        elif args.verbose:
            print("%-14s done" % case.name, flush=True)

    print("%-14s %12s %6s %7s %8s %6s  %s" % ("command", "reference_s", "kills", "sigint", "resumes", "files",
                                              "identical"))
    ok = True
    for r in rows:
        if "error" in r:
            ok = False
            continue
        good = r["identical"] and not r["problems"]
        ok = ok and good
        print("%-14s %12.1f %6d %7s %8d %6d  %s" % (r["name"], r["reference_s"], r["kills"], r["sigint"],
                                                    r["resumes"], r["compared"], "yes" if good else "NO"))
        for p in r["problems"]:
            print("    " + p)
    print("(seed %d; kills: SIGKILLs that hit a running process; resumes: runs after the first (generate has\n"
          " no --resume: it is rerun); timing members (*seconds) set to 0 before comparing; work dir %s)"
          % (args.seed, args.work))
    if not args.keep and ok:
        shutil.rmtree(args.work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
