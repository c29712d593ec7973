#!/usr/bin/env python3
"""The board page in a real browser: builds a small board with `brec board run`, renders it with
`brec report DIR --html`, loads the page in headless Chromium and checks, in the DOM Chromium
built (its scripts run), that
  * every count of the board tables equals the report's JSON summary of the same board (per
    task and model, under both RPC protocols, and the paper's rows equal `brec eval
    --list-models --json`);
  * the pair x model matrix has one cell per (model, board pair), and as many separated cells
    per model as its Total count;
  * the page opened at #pair=ID shows that pair's panel: both graphs drawn and a row per model;
and that the file references nothing outside itself (no src/href/url()/@import, no URL but the SVG
namespace). A screenshot is written next to the page (--keep DIR keeps them to look at).

Usage: board_page_test.py --brec build/bin/brec --chromium /usr/bin/chromium [--keep DIR]
"""
import argparse
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PAIRS = "0-3,60,61,160"
MODELS = "gin,ppgn"


class Dom(html.parser.HTMLParser):
    """The table cells with data-* attributes, the matrix cells and the pair panel's contents."""

    def __init__(self):
        super().__init__()
        self.cells = {}  # (model, task, protocol) -> text
        self.matrix = []  # (model, pair, classes)
        self.panel_depth = 0
        self.panel_svgs = 0
        self.panel_rows = 0
        self.panel_text = ""
        self._cell = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self._depth += 1
        if a.get("id") == "pair-panel":
            self.panel_depth = self._depth
        in_panel = self.panel_depth > 0 and self._depth > self.panel_depth
        if in_panel and tag == "svg":
            self.panel_svgs += 1
        if in_panel and tag == "tr":
            self.panel_rows += 1
        if tag == "td" and "data-protocol" in a:
            self._cell = (a["data-model"], a["data-task"], a["data-protocol"])
            self.cells[self._cell] = ""
        if tag == "span" and "data-pair" in a:
            self.matrix.append((a["data-model"], int(a["data-pair"]), a.get("class", "").split()))

    def handle_endtag(self, tag):
        if self.panel_depth and self._depth == self.panel_depth:
            self.panel_depth = -1  # closed: nothing after it is inside
        self._depth -= 1
        if tag == "td":
            self._cell = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data):
        if self._cell:
            self.cells[self._cell] += data
        if self.panel_depth > 0 and self._depth > self.panel_depth:
            self.panel_text += data


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"FAILED: {' '.join(cmd)}\n{r.stderr}")
    return r.stdout


def chromium(binary, work, *args):
    profile = tempfile.mkdtemp(dir=work)
    flags = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}",
             "--virtual-time-budget=5000", *args]
    return run(flags, timeout=180)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--brec", required=True)
    p.add_argument("--chromium", required=True)
    p.add_argument("--keep", help="directory to keep the page and screenshot in")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="brec_board_page_")
    board = os.path.join(work, "board")
    run([a.brec, "board", "run", "--models", MODELS, "--pairs", PAIRS, "--out", board, "-q", "-j", "2",
         "--torch-threads", "1"])
    page = os.path.join(work, "board.html")
    run([a.brec, "report", board, "--html", page, "--quiet"])
    summary = json.loads(run([a.brec, "report", board, "--format", "json", "--quiet"]))
    models = json.loads(run([a.brec, "eval", "--list-models", "--json"]))
    text = open(page, encoding="utf-8").read()
    failures = []

    # Self-contained: no reference to anything outside the file.
    outside = re.findall(r"""\b(?:src|href)\s*=|url\(|@import|https?://[^"'\s<]*""", text)
    outside = [o for o in outside if o not in ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink")]
    if outside:
        failures.append(f"the page references something outside itself: {sorted(set(outside))[:5]}")

    dom_text = chromium(a.chromium, work, "--dump-dom", "file://" + page + "#pair=160")
    dom = Dom()
    dom.feed(dom_text)

    # The board tables against the report's JSON summary.
    cells = {(c["task"], c["model"]): c["mean"] for c in summary["cells"]}
    checked = 0
    for (task, model), mean in cells.items():
        for protocol, value in (("hotelling", mean),
                                ("brec_reference", summary["protocols"]["brec_reference"][model]["tasks"][task]["distinguished"])):
            shown = dom.cells.get((model, task, protocol))
            if shown is None or abs(float(shown) - value) > 1e-9:
                failures.append(f"{model} {task} {protocol}: page {shown!r}, summary {value}")
            checked += 1
    for model, row in summary["protocols"]["hotelling"].items():
        shown = dom.cells.get((model, "Total", "hotelling"))
        if shown is None or abs(float(shown) - row["total"]["distinguished"]) > 1e-9:
            failures.append(f"{model} Total: page {shown!r}, summary {row['total']['distinguished']}")
    paper = {m["name"]: m["paper"] for m in models}
    for model in summary["models"]:
        for task, key in (("Basic", "basic"), ("Regular", "regular"), ("Extension", "extension"), ("CFI", "cfi"),
                          ("Total", "total")):
            want = str(paper[model][key]) if paper.get(model) else "–"
            if dom.cells.get((model, task, "paper")) != want:
                failures.append(f"{model} {task} paper: page {dom.cells.get((model, task, 'paper'))!r}, list {want}")

    # The matrix: one cell per (model, pair), as many separated as the Total count.
    pairs = 4 + 2 + 1
    for model in summary["models"]:
        mine = [c for c in dom.matrix if c[0] == model]
        if len(mine) != pairs:
            failures.append(f"{model}: {len(mine)} matrix cells, expected {pairs}")
        separated = sum("s" in c[2] for c in mine)
        if separated != int(float(dom.cells.get((model, "Total", "hotelling"), "-1"))):
            failures.append(f"{model}: {separated} separated cells, Total says {dom.cells.get((model, 'Total', 'hotelling'))}")

    # The pair panel of #pair=160: both graphs and a row per model (after the header row).
    if "Pair 160" not in dom.panel_text or dom.panel_svgs != 2 or dom.panel_rows != 1 + len(summary["models"]):
        failures.append(f"pair panel: text {dom.panel_text[:80]!r}, {dom.panel_svgs} svgs, {dom.panel_rows} rows")

    shot = os.path.join(work, "board.png")
    chromium(a.chromium, work, "--window-size=1400,1800", f"--screenshot={shot}", "file://" + page)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        failures.append("no screenshot (or an empty one)")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        for f in ("board.html", "board.png"):
            shutil.copy(os.path.join(work, f), a.keep)
    shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("\n".join(failures))
        return 1
    print(f"board page ok: {checked} counts equal the summary, {len(dom.matrix)} matrix cells, pair panel drawn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
