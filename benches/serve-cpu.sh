#!/usr/bin/env bash
# The negotiated path in CPU time, for a machine shared with other work:
# each route (or codec) encodes each input in a loop of its own process
# (`encode-profile`), and the process's user CPU time is what counts, so
# time spent waiting for a core is not. Setup (loading the data) is timed
# alone and subtracted. RUNS runs each (3), alternating, the fastest kept;
# prints a markdown table of microseconds per response and each column's
# ratio to the first.
# Usage: [RUNS=N] bash benches/serve-cpu.sh [serve|standard|validated|actix|json|dense] [INPUT...]
#   INPUT: a dataset, or DATASET-ROWS, its first ROWS rows (`tabular-1`, a
#     one-row response: its fixed cost); default the eight and the two 20-row ones.
#   serve (default): axum::Json, then negotiated json, md and mcp, through
#     the serve routers;
#   standard: axum::Json, then json, md and mcp behind the README's
#     layer, `agent_codecs::standard().layer()`;
#   validated: the same with a validator the handler supplies
#     (`Negotiated(data).validator(..)`), the ETag derived from it;
#   actix: actix-web's web::Json, then its negotiated json, md and mcp
#     (`negotiate::actix::Negotiated`), through in-process actix apps;
#   json: axum::Json and negotiated json only (with RUNS=7, the figures
#     closest to their target, taken again);
#   dense: codec-md's default profile, then its dense profile, typed data
#     through `dyn Codec`.
# RUNS (default 3): runs of each route, the fastest kept.
set -euo pipefail
source "$(dirname "$0")/serve-routes.sh"
runs=${RUNS:-3}
# About half a second of axum::Json's work per run (the other columns
# take up to six times as long).
iterations() {
  case $1 in
    tabular-1) echo 500000 ;;
    nested-config) echo 250000 ;;
    tabular-20) echo 200000 ;;
    nested-20) echo 60000 ;;
    analytics | github | keyed) echo 20000 ;;
    nested | nested-group) echo 3000 ;;
    *) echo 2500 ;;
  esac
}
user_seconds() { /usr/bin/time -f %U "$bin" "$1" "$2" "$3" 2>&1 >/dev/null | tail -1; }
table_header " µs"
for input in "${inputs[@]}"; do
  n=$(iterations "$input")
  best=()
  for _ in $(seq "$runs"); do
    for i in "${!whats[@]}"; do
      t=$(user_seconds "${whats[$i]}" "$input" "$n")
      z=$(user_seconds "${whats[$i]}" "$input" 0)
      t=$(awk -v t="$t" -v z="$z" 'BEGIN { print t - z }')
      best[$i]=$(printf '%s\n%s\n' "$t" "${best[$i]:-$t}" | sort -g | head -1)
    done
  done
  printf '| %s |' "$input"
  for i in "${!whats[@]}"; do
    awk -v t="${best[$i]}" -v n="$n" 'BEGIN { printf " %.1f |", t / n * 1e6 }'
  done
  for i in "${!whats[@]}"; do
    [ "$i" -eq 0 ] && continue
    awk -v t="${best[$i]}" -v b="${best[0]}" 'BEGIN { printf " %.2fx |", t / b }'
  done
  printf '\n'
done
