#!/usr/bin/env python3
"""Checks (or with --fix rewrites) the README's Models table: the block between the two
board-table markers must equal what `brec report datasets/brec/results/seed100 --board-table`
prints for the shipped board. Exit 0 when equal (or fixed), 1 when not, 2 on a missing marker
or a failing brec."""
import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOARD = "datasets/brec/results/seed100"
BEGIN = "<!-- board table: generated; python3 scripts/ci/readme_board_table.py --fix rewrites it -->"
END = "<!-- end of board table -->"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--brec", default=str(ROOT / "build/bin/brec"), help="the brec binary")
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    ap.add_argument("--fix", action="store_true", help="rewrite the README's table instead of checking it")
    args = ap.parse_args()

    run = subprocess.run([args.brec, "report", BOARD, "--board-table", "--quiet"], cwd=ROOT,
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"readme_board_table: brec report failed ({run.returncode}): {run.stderr.strip()}", file=sys.stderr)
        return 2
    readme = pathlib.Path(args.readme)
    text = readme.read_text()
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        print(f"readme_board_table: {readme}: the markers {BEGIN!r} and {END!r} are missing", file=sys.stderr)
        return 2
    head = text[: start + len(BEGIN)] + "\n"
    have = text[len(head):stop]
    if have == run.stdout:
        print(f"readme_board_table: {readme} holds the table of {BOARD}")
        return 0
    if args.fix:
        readme.write_text(head + run.stdout + text[stop:])
        print(f"readme_board_table: rewrote the table of {readme}")
        return 0
    want, got = run.stdout.splitlines(), have.splitlines()
    first = next((i for i in range(max(len(want), len(got)))
                  if i >= len(want) or i >= len(got) or want[i] != got[i]), 0)
    print(f"readme_board_table: {readme}'s Models table differs from brec report {BOARD} --board-table "
          f"at table line {first + 1}:\n  README: {got[first] if first < len(got) else '(none)'}\n"
          f"  brec:   {want[first] if first < len(want) else '(none)'}\n"
          "run: python3 scripts/ci/readme_board_table.py --fix", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
