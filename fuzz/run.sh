#!/usr/bin/env bash
# Runs the fuzz targets with cargo-fuzz on the nightly toolchain, one after
# another, and prints each one's executions and time. See README.md.
#
#   fuzz/run.sh                          every target for 30 s
#   fuzz/run.sh --time 3600 md_parse     one target for an hour
#   fuzz/run.sh --runs 10000000 json     one target for 10 million inputs
#   fuzz/run.sh --runs 10000000 --jobs 2 md_stream   two fuzzers sharing a corpus
#   fuzz/run.sh --no-trace-compares ...  without the hooks on comparisons
#                                        (about twice the inputs a second)
#
# Each target reads its committed inputs (corpus/TARGET, the seeds and the
# minimized corpus, and regressions/TARGET) and writes what it finds to
# scratch/TARGET, never into the committed corpus; a failing input lands
# in artifacts/TARGET/. Exits non-zero at the first target that fails.
set -euo pipefail
cd "$(dirname "$0")"

time=30
runs=""
jobs=1
compares=()
targets=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --no-trace-compares) compares=(--no-trace-compares); shift ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "usage: fuzz/run.sh [--time SECONDS] [--runs N] [--jobs N] [--no-trace-compares] [TARGET...] [-- LIBFUZZER-FLAGS]" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi

# No sanitizer: the workspace forbids `unsafe`, so AddressSanitizer would
# only watch the dependencies, at about half the speed. Debug assertions
# on: integer overflow panics, as in a test build.
# --no-trace-compares (cargo-fuzz's flag) drops the hooks libFuzzer uses
# to learn the constants inputs are compared with: coverage is still
# traced, the mutations are less informed, and a target whose own work is
# mostly comparisons runs about twice as fast. For long runs from a grown
# corpus; see README.md.
flags=(--sanitizer none --debug-assertions "${compares[@]}")
cargo +nightly fuzz build "${flags[@]}"

for target in "${targets[@]}"; do
  mkdir -p "scratch/$target"
  corpora=("scratch/$target")
  for dir in "corpus/$target" "regressions/$target"; do
    if [ -d "$dir" ]; then corpora+=("$dir"); fi
  done
  limit=(-max_total_time="$time")
  # The markdown targets get the tokens of its constructs (markdown.dict).
  dict=()
  case "$target" in md_*) dict=(-dict="$PWD/markdown.dict") ;; esac
  if [ -n "$runs" ]; then limit=(-runs="$(( (runs + jobs - 1) / jobs ))"); fi
  if [ "$jobs" -gt 1 ]; then
    # N fuzzers on one corpus, each reloading what the others add: each
    # runs its share of the inputs and logs to fuzz-JOB.log here, which
    # libFuzzer copies into its own output when the job ends.
    limit+=(-jobs="$jobs" -workers="$jobs")
    rm -f fuzz-*.log
  fi
  # Inputs are small and every reader is linear: an input that takes 10 s
  # is a blow-up, and so is one that needs 2 GB.
  libfuzzer=("${limit[@]}" "${dict[@]}" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 "${extra[@]}")
  echo "== fuzz $target: cargo +nightly fuzz run ${flags[*]} $target ${corpora[*]} -- ${libfuzzer[*]}"
  start=$(date +%s)
  log="scratch/$target.log"
  if ! cargo +nightly fuzz run "${flags[@]}" "$target" "${corpora[@]}" -- "${libfuzzer[@]}" > "$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz: $target FAILED (the whole log: fuzz/$log; the input: fuzz/artifacts/$target/)"
    exit 1
  fi
  rm -f fuzz-*.log
  executed=$(grep -h 'stat::number_of_executed_units' "$log" | awk '{ sum += $2 } END { print sum + 0 }')
  if [ "$executed" = 0 ]; then
    # -fork=N: the jobs' stats stay in their own logs; the parent's
    # status lines ("#RUNS: cov: ...") carry the total.
    executed=$(grep -ho '^#[0-9]*: cov:' "$log" | tail -n 1 | tr -dc 0-9)
  fi
  echo "fuzz: $target: $executed runs in $(( $(date +%s) - start )) s, no failure"
done
