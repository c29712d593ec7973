"""Running the brec binary from Python: finding it and reading its JSON output."""
import json
import os
import shutil
import subprocess
import sys
from typing import List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))


def find_brec(given: str = "") -> str:
    """--brec, else $BREC, else `brec` on PATH, else the repository's build/bin/brec."""
    for candidate in (given, os.environ.get("BREC", ""), shutil.which("brec") or "",
                      os.path.join(HERE, "..", "..", "build", "bin", "brec")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    sys.exit("cannot find the brec binary: pass --brec PATH or set BREC (build it with scripts/setup.sh)")


def run_json(brec: str, args: List[str]) -> Tuple[dict, List[dict]]:
    """Runs `brec ARGS --json --quiet`; returns (summary, per-pair records). Exits on failure."""
    cmd = [brec] + args + ["--json", "--quiet"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("command failed (exit %d): %s\n%s" % (done.returncode, " ".join(cmd), done.stderr.strip()))
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return lines[-1], lines[:-1]


def counts(summary: dict, protocol: str = "hotelling") -> dict:
    """{pairs, distinguished, reliability_failures} of a summary under a protocol."""
    return summary["protocols"][protocol]["total"]
