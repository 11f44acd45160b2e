#!/usr/bin/env bash
# `codec serve` under a real load generator: wrk (Debian's package,
# installed when missing) at CONNECTIONS connections (200) for DURATION
# seconds (10) on each document and format, against a release build.
# Prints a markdown table of requests per second, p99 latency, errors
# (non-2xx answers and socket errors) and the server's peak RSS (VmHWM,
# since it started, so each row includes the rows before it).
#
# Documents: `small`, the bundled sample's first 20 rows (a few KB);
# `large`, 20 MB of employee-like records (`gen-large`), served whole.
# Rendered once per representation, so after the first request each
# answer sends shared bytes.
#
# Usage: [CONNECTIONS=N] [DURATION=S] bash benches/serve-load.sh
# A benchmark, not a test: CI runs the functional tests of the same limits.
set -euo pipefail
cd "$(dirname "$0")/.."
connections=${CONNECTIONS:-200}
seconds=${DURATION:-10}

if ! command -v wrk > /dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk > /dev/null
fi
cargo build -q --release -p codec-cli -p benches --bin codec --bin gen-large
target_dir=$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
codec="$target_dir/release/codec"

dir=$(mktemp -d)
trap 'kill "$server" 2> /dev/null || true; rm -rf "$dir"' EXIT
"$codec" render --sample --to json 2> /dev/null \
  | python3 -c 'import json, sys; v = json.load(sys.stdin); json.dump(v[:20] if isinstance(v, list) else v, sys.stdout)' \
  > "$dir/small.json"
"$target_dir/release/gen-large" 20MB > "$dir/large.json" 2> /dev/null

# More than enough slots and file descriptors for the load itself: the
# figures are the server's throughput, not its refusals.
ulimit -n 65536 2> /dev/null || true
"$codec" serve "$dir" --addr 127.0.0.1:0 --max-concurrent 1024 --max-per-client 1024 2> "$dir/serve.log" &
server=$!
for _ in $(seq 100); do
  addr=$(grep -oE '127\.0\.0\.1:[0-9]+' "$dir/serve.log" | head -1 || true)
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { cat "$dir/serve.log"; exit 1; }

echo "codec serve at $addr, $connections connections, $seconds s each, $(nproc) cores"
echo
echo "| document | format | requests/s | p99 | errors | peak RSS |"
echo "|---|---|---:|---:|---:|---:|"
for doc in small large; do
  for format in json md mcp; do
    out=$(wrk --latency -t 2 -c "$connections" -d "${seconds}s" --timeout 30s \
      "http://$addr/$doc?format=$format")
    rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' <<< "$out")
    p99=$(awk '$1 == "99%" { print $2 }' <<< "$out")
    errors=$(awk '/Non-2xx/ { n += $NF } /Socket errors/ { gsub(",", ""); n += $4 + $6 + $8 + $10 } END { print n + 0 }' <<< "$out")
    rss=$(awk '/VmHWM/ { printf "%d MB", $2 / 1024 }' "/proc/$server/status")
    echo "| $doc | $format | $rps | $p99 | $errors | $rss |"
  done
done
