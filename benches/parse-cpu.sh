#!/usr/bin/env bash
# Parse speed in CPU time, for a machine shared with other work: each
# parser parses each parse input in a loop of its own process
# (`parse-profile`), and the process's user CPU time is what counts, so
# time spent waiting for a core is not. Three runs each, alternating, the
# fastest kept; prints a markdown table of microseconds per parse and the
# ratio codec_core / serde_json.
# Usage: bash benches/parse-cpu.sh [INPUT...]   (default: every parse input)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p benches --bin parse-profile
bin=${CARGO_TARGET_DIR:-target}/release/parse-profile
inputs=("$@")
[ ${#inputs[@]} -eq 0 ] && inputs=(tabular nested analytics github event-logs nested-config keyed nested-group tabular-20 nested-20)
# About a second of work per run, from the input's size.
iterations() {
  case $1 in
    nested-config) echo 100000 ;;
    tabular-20 | nested-20) echo 30000 ;;
    analytics | github | keyed) echo 4000 ;;
    *) echo 500 ;;
  esac
}
user_seconds() { /usr/bin/time -f %U "$bin" "$1" "$2" "$3" 2>&1 >/dev/null | tail -1; }
echo "| input | serde_json µs | codec_core µs | codec_core ÷ serde_json |"
echo "|---|---:|---:|---:|"
for input in "${inputs[@]}"; do
  n=$(iterations "$input")
  best_s=; best_c=
  for _ in 1 2 3; do
    s=$(user_seconds serde_json "$input" "$n")
    c=$(user_seconds codec_core "$input" "$n")
    best_s=$(printf '%s\n%s\n' "$s" "${best_s:-$s}" | sort -g | head -1)
    best_c=$(printf '%s\n%s\n' "$c" "${best_c:-$c}" | sort -g | head -1)
  done
  awk -v i="$input" -v n="$n" -v s="$best_s" -v c="$best_c" \
    'BEGIN { printf "| %s | %.1f | %.1f | %.2fx |\n", i, s / n * 1e6, c / n * 1e6, c / s }'
done
