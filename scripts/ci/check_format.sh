#!/usr/bin/env bash
# Fails when a C++ source or header of the repository differs from what clang-format (the
# repository's .clang-format; Debian 12's clang-format 14) makes of it. Fix with:
#   git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v clang-format >/dev/null || { echo "check_format.sh: clang-format is not installed (scripts/setup.sh installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' 2>/dev/null || find src include apps tests -name '*.[ch]pp')
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! clang-format --dry-run --Werror "${files[@]}" 2>"$log"; then
    grep -E "error:" "$log" | head -20 >&2
    echo "check_format.sh: $(grep -c 'error:' "$log") places differ from clang-format; run: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i" >&2
    exit 1
fi
echo "check_format.sh: ${#files[@]} files formatted as .clang-format says"
