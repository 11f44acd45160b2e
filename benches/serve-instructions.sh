#!/usr/bin/env bash
# The negotiated path in instructions: serve-cpu.sh's table, counted by
# callgrind instead of timed. Each route (or codec) encodes each input N
# times in `encode-profile` under `valgrind --tool=callgrind`, and the
# same process with N = 0 (loading the data) is subtracted; the count is
# the same on a busy machine as on a quiet one, for the same binary.
# Prints a markdown table of instructions per response and each column's
# ratio to the first.
# Usage: bash benches/serve-instructions.sh [serve|standard|validated|actix|json|dense] [INPUT...]
#   the modes and inputs of serve-cpu.sh (see there).
set -euo pipefail
source "$(dirname "$0")/serve-routes.sh"
# Enough responses that the loop outweighs what one response leaves
# behind (a buffer's first growth); callgrind runs ~50x slower than the
# program.
iterations() {
  case $1 in
    tabular-1 | nested-config | tabular-20) echo 2000 ;;
    nested-20) echo 500 ;;
    analytics | github | keyed) echo 50 ;;
    *) echo 10 ;;
  esac
}
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" "$3" 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
human() {
  awk -v x="$1" 'BEGIN {
    if (x >= 1e6) printf "%.2fM", x / 1e6; else if (x >= 1e3) printf "%.1fk", x / 1e3; else printf "%d", x
  }'
}
table_header ""
for input in "${inputs[@]}"; do
  n=$(iterations "$input")
  per=()
  for i in "${!whats[@]}"; do
    t=$(instructions "${whats[$i]}" "$input" "$n")
    z=$(instructions "${whats[$i]}" "$input" 0)
    per[$i]=$(awk -v t="$t" -v z="$z" -v n="$n" 'BEGIN { printf "%.0f", (t - z) / n }')
  done
  printf '| %s |' "$input"
  for i in "${!whats[@]}"; do printf ' %s |' "$(human "${per[$i]}")"; done
  for i in "${!whats[@]}"; do
    [ "$i" -eq 0 ] && continue
    awk -v t="${per[$i]}" -v b="${per[0]}" 'BEGIN { printf " %.2fx |", t / b }'
  done
  printf '\n'
done
