#!/bin/bash
# Kill-and-resume check of brec's long-running commands with the real binaries (SIGKILL at seeded
# random moments, one SIGINT, resume until done, compare with an uninterrupted run byte for byte).
#   bash scripts/kill_resume.sh [--brec build/bin/brec] [--quick] [--seed N] [-v]
# The work is done by kill_resume.py next to this file; see its --help.
exec python3 "$(dirname "$0")/kill_resume.py" "$@"
