#!/usr/bin/env bash
# Memory and scale: generates employee-like JSON of 1, 10 and 100 MB and
# renders each with serde_json (baseline), codec-json, codec-md (default
# and dense profiles) and codec-mcp, one process per run, printing a markdown table of times and
# peak RSS. Usage: bash benches/scale.sh [DIR] [SIZES...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/codec-scale}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1MB 10MB 100MB)
mkdir -p "$dir"
cargo build -q --release -p benches --bin gen-large --bin render-mem
bin=${CARGO_TARGET_DIR:-target}/release
echo "| format | input MB | output MB | read ms | parse ms | render ms | total ms | peak RSS MB | peak ÷ input |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for size in "${sizes[@]}"; do
  file="$dir/employees-$size.json"
  [ -f "$file" ] || "$bin/gen-large" "$size" > "$file" 2>/dev/null
  for format in serde_json json md "codec-md dense" mcp; do
    "$bin/render-mem" "$format" "$file"
  done
done
