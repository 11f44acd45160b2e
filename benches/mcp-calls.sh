#!/usr/bin/env bash
# Memory of `codec mcp` under pipelined calls: generates a document of
# about 20 MB (99,000 rows), sends `initialize` and then CALLS whole-document
# `get`s of it at once, before reading any answer, checks that each call
# is answered, and prints the time from the first call to the last answer
# and the server's peak RSS (/usr/bin/time -v).
# Usage: bash benches/mcp-calls.sh [CALLS] [EXTRA codec mcp FLAGS...]
#   bash benches/mcp-calls.sh 200                  # the default text limit
#   bash benches/mcp-calls.sh 200 --max-calls 16
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-200}
shift || true
dir=${MCP_CALLS_DIR:-/tmp/codec-mcp-calls}
mkdir -p "$dir"
cargo build -q --release -p codec-cli
bin=${CARGO_TARGET_DIR:-target}/release/codec
python3 - "$dir/big.json" <<'PY'
import json, os, sys
path = sys.argv[1]
if not os.path.exists(path):
    rows = [{"id": i, "name": f"user {i}", "email": f"user{i}@example.com",
             "team": ["core", "web", "data"][i % 3], "active": i % 2 == 0,
             "score": round(i * 0.37, 2), "joined": f"2024-{1 + i % 12:02}-{1 + i % 28:02}",
             "note": "lorem ipsum dolor sit amet, consectetur adipiscing elit " * 1}
            for i in range(99_000)]
    with open(path, "w") as f:
        json.dump(rows, f)
print(f"document: {os.path.getsize(path) / 1e6:.1f} MB", file=sys.stderr)
PY
python3 - "$bin" "$dir" "$calls" "$@" <<'PY'
import json, subprocess, sys, time
codec, dir, calls, flags = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
proc = subprocess.Popen(["/usr/bin/time", "-v", codec, "mcp", dir, *flags],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
def send(message):
    proc.stdin.write((json.dumps(message) + "\n").encode())
send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                 "clientInfo": {"name": "mcp-calls", "version": "1"}}})
proc.stdin.flush()
# The document is loaded before `initialize` is answered: the time is
# the calls' alone.
proc.stdout.readline()
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
start = time.time()
for i in range(1, calls + 1):
    send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
          "params": {"name": "get", "arguments": {"name": "big"}}})
proc.stdin.flush()
answered, results = {0}, 0
while len(answered) < calls + 1:
    line = proc.stdout.readline()
    if not line:
        break
    answer = json.loads(line)
    answered.add(answer.get("id"))
    results += "result" in answer and answer.get("id") != 0
elapsed = time.time() - start
proc.stdin.close()
proc.stdout.read()
stderr = proc.stderr.read().decode()
proc.wait()
peak = next(int(l.split(":")[1]) for l in stderr.splitlines() if "Maximum resident set size" in l)
print(f"calls: {calls}, flags: {' '.join(flags) or '(none)'}, answered: {len(answered) - 1}, "
      f"results: {results}, time: {elapsed:.2f} s, peak RSS: {peak / 1024:.0f} MB")
sys.exit(0 if results == calls else 1)
PY
