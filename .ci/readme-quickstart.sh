#!/usr/bin/env bash
# The README's quick start, followed literally: next to the clone (a
# directory named `agent-codecs`), `cargo new my-service`, the README's first
# `toml` block as its dependencies and its first `rust` block as
# `src/main.rs`, then `cargo build`. The blocks are read from README.md, so
# this checks the README's own text. Dependencies build into the
# repository's target dir, so a CI run reuses what it already compiled.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

# The lines between the first fence whose info string starts with $1 and
# the fence that closes it.
first_block() {
  awk -v lang="$1" '
    !open && !done && index($0, "```" lang) == 1 { open = 1; next }
    open && /^```/ { done = 1; exit }
    open { print }
  ' "$repo/README.md"
}

dependencies="$(first_block toml)"
main_rs="$(first_block rust)"
if [ -z "$dependencies" ] || [ -z "$main_rs" ]; then
  echo "readme-quickstart: README.md has no toml or no rust block" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$repo" "$work/agent-codecs"
cd "$work"
cargo new --quiet --vcs none my-service
cd my-service
# `cargo new` ends the manifest with an empty `[dependencies]`; the README's
# block brings its own.
sed -i '/^\[dependencies\]$/d' Cargo.toml
printf '%s\n' "$dependencies" >> Cargo.toml
printf '%s\n' "$main_rs" > src/main.rs

echo "readme-quickstart: Cargo.toml"
cat Cargo.toml
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}" cargo build
echo "readme-quickstart: the README's dependencies and first example build in a new crate"
