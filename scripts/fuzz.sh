#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, AddressSanitizer + UndefinedBehaviorSanitizer,
# no LibTorch) in build-fuzz/ and runs them one after the other:
#
#   scripts/fuzz.sh                       every target, 1,000,000 executions each
#   scripts/fuzz.sh --seconds 20          every target for 20 s
#   scripts/fuzz.sh --runs 50000 json tu  the named targets only
#   scripts/fuzz.sh --merge graph6        then fold the inputs with new coverage into
#                                         tests/fuzz/corpus/graph6 (minimized: -merge=1)
#
# Each target runs on a scratch corpus (build-fuzz/fuzz-runs/TARGET/corpus, kept between runs and
# seeded from tests/fuzz/corpus/TARGET) with leak detection on, a per-input time limit (-timeout)
# and a memory limit (-rss_limit_mb). Prints a table target | executions | seconds | exec/s | corpus
# | result and exits 1 if any target found a crash, leak, hang or out-of-memory input, naming the
# reproducer (replay it with build-fuzz/tests/fuzz/fuzz_TARGET FILE; once fixed, copy it into
# tests/fuzz/corpus/TARGET so that the fuzz_replay_TARGET test of every build replays it).
#
# Options: --runs N, --seconds S (instead of --runs), --timeout S (per input, default 10),
# --rss-mb M (default 2048), --max-len B (default 4096), --no-build, --merge, --build-dir DIR,
# --jobs J (build parallelism, default: nproc). Needs clang-14 with its libFuzzer runtime
# (Debian 12: clang-14, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(graph6 pairs npy edgelist tu json results rpc)
RUNS=1000000
SECONDS_PER_TARGET=""
TIMEOUT=10
RSS_MB=2048
MAX_LEN=4096
BUILD=1
MERGE=0
BUILD_DIR="build-fuzz"
JOBS="$(nproc)"
TARGETS=()

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }
need_value() {
  if [[ $# -lt 2 || -z "$2" ]]; then
    echo "fuzz.sh: $1 needs a value" >&2
    exit 2
  fi
}
positive() {
  if ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz.sh: $1 must be a positive integer, got '$2'" >&2
    exit 2
  fi
}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) need_value "$@"; positive "$1" "$2"; RUNS="$2"; SECONDS_PER_TARGET=""; shift 2 ;;
    --seconds) need_value "$@"; positive "$1" "$2"; SECONDS_PER_TARGET="$2"; shift 2 ;;
    --timeout) need_value "$@"; positive "$1" "$2"; TIMEOUT="$2"; shift 2 ;;
    --rss-mb) need_value "$@"; positive "$1" "$2"; RSS_MB="$2"; shift 2 ;;
    --max-len) need_value "$@"; positive "$1" "$2"; MAX_LEN="$2"; shift 2 ;;
    --jobs) need_value "$@"; positive "$1" "$2"; JOBS="$2"; shift 2 ;;
    --build-dir) need_value "$@"; BUILD_DIR="$2"; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    --merge) MERGE=1; shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *)
      if [[ ! " ${ALL_TARGETS[*]} " =~ \ $1\  ]]; then
        echo "fuzz.sh: unknown target '$1' (targets: ${ALL_TARGETS[*]})" >&2
        exit 2
      fi
      TARGETS+=("$1")
      shift
      ;;
  esac
done
((${#TARGETS[@]})) || TARGETS=("${ALL_TARGETS[@]}")

if ((BUILD)); then
  CXX_FUZZ=""
  for c in clang++-14 clang++; do
    if command -v "$c" >/dev/null; then CXX_FUZZ="$c"; break; fi
  done
  if [[ -z "$CXX_FUZZ" ]]; then
    echo "fuzz.sh: clang++ not found (Debian 12: apt-get install clang-14 libclang-rt-14-dev)" >&2
    exit 2
  fi
  CC_FUZZ="${CXX_FUZZ/clang++/clang}"
  launcher=()
  if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
  CC="$CC_FUZZ" CXX="$CXX_FUZZ" cmake -S . -B "$BUILD_DIR" -DBREC_BUILD_FUZZ=ON -DBREC_WITH_TORCH=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" >/dev/null
  if ! cmake --build "$BUILD_DIR" -j "$JOBS" --target "${TARGETS[@]/#/fuzz_}" >"$BUILD_DIR/fuzz-build.log" 2>&1; then
    grep -E "error" "$BUILD_DIR/fuzz-build.log" | head -20 >&2 || true
    echo "fuzz.sh: building the fuzz targets failed, see $BUILD_DIR/fuzz-build.log" >&2
    exit 2
  fi
  grep -E "warning:" "$BUILD_DIR/fuzz-build.log" >&2 || true
fi
for t in "${TARGETS[@]}"; do
  if [[ ! -x "$BUILD_DIR/tests/fuzz/fuzz_$t" ]]; then
    echo "fuzz.sh: $BUILD_DIR/tests/fuzz/fuzz_$t was not built" >&2
    exit 2
  fi
done

# Stack traces with file:line (clang-14's symbolizer is not on PATH under its plain name on Debian).
for s in /usr/lib/llvm-14/bin/llvm-symbolizer "$(command -v llvm-symbolizer || true)"; do
  if [[ -x "$s" ]]; then export ASAN_SYMBOLIZER_PATH="$s"; break; fi
done
# Leaks are findings; a sanitizer report ends the input (libFuzzer writes the reproducer).
export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

failed=0
rows=()
for t in "${TARGETS[@]}"; do
  dir="$BUILD_DIR/fuzz-runs/$t"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  rm -f "$dir"/artifacts/*
  cp -f tests/fuzz/corpus/"$t"/* "$dir/corpus/"
  limit=(-runs="$RUNS")
  if [[ -n "$SECONDS_PER_TARGET" ]]; then limit=(-max_total_time="$SECONDS_PER_TARGET"); fi
  echo "fuzz.sh: $t (${limit[*]}, log $dir/log)" >&2
  start=$(date +%s.%N)
  set +e
  "$BUILD_DIR/tests/fuzz/fuzz_$t" "${limit[@]}" -max_len="$MAX_LEN" -timeout="$TIMEOUT" \
    -rss_limit_mb="$RSS_MB" -malloc_limit_mb="$RSS_MB" -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1
  rc=$?
  set -e
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  execs=$(awk -F: '/stat::number_of_executed_units/ { gsub(/ /, "", $NF); print $NF }' "$dir/log" | tail -1)
  execs=${execs:-?}
  rate=$(awk -v n="$execs" -v s="$secs" 'BEGIN { if (n ~ /^[0-9]+$/ && s > 0) printf "%d", n / s; else print "?" }')
  corpus=$(find "$dir/corpus" -type f | wc -l)
  found=$(find "$dir/artifacts" -type f | head -1)
  if [[ $rc -eq 0 && -z "$found" ]]; then
    result="ok"
  else
    failed=1
    kind=$(basename "${found:-none}" | sed 's/-.*//')
    result="FAILED ($kind, exit $rc): reproducer ${found:-none}, log $dir/log"
    grep -m3 -E "ERROR: |runtime error:|property violated" "$dir/log" >&2 || true
  fi
  rows+=("$t|$execs|$secs|$rate|$corpus|$result")
  if ((MERGE)) && [[ "$result" == ok ]]; then
    "$BUILD_DIR/tests/fuzz/fuzz_$t" -merge=1 -max_len="$MAX_LEN" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
      "tests/fuzz/corpus/$t" "$dir/corpus" >"$dir/merge.log" 2>&1 ||
      { echo "fuzz.sh: merging $t failed, see $dir/merge.log" >&2; failed=1; }
  fi
done

printf '\n%-9s | %11s | %8s | %7s | %6s | %s\n' target executions seconds exec/s corpus result
printf '%s\n' "----------|-------------|----------|---------|--------|-------"
for r in "${rows[@]}"; do
  IFS='|' read -r t execs secs rate corpus result <<<"$r"
  printf '%-9s | %11s | %8s | %7s | %6s | %s\n' "$t" "$execs" "$secs" "$rate" "$corpus" "$result"
done
if ((MERGE)); then
  echo "merged into tests/fuzz/corpus: $(du -sh tests/fuzz/corpus | cut -f1) in $(find tests/fuzz/corpus -type f | wc -l) files"
  # The committed corpus is replayed by every build: keep it to a few hundred KB (a long run of the
  # results target merges MBs; commit a chosen few of its new files instead).
  if (($(du -sk tests/fuzz/corpus | cut -f1) > 512)); then
    echo "fuzz.sh: tests/fuzz/corpus is over 512 KB; commit only a few of the new files (git status)" >&2
  fi
fi
exit "$failed"
