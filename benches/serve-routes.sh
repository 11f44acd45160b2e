# Sourced by serve-cpu.sh and serve-instructions.sh: builds
# encode-profile and reads their arguments, `[serve|standard|validated|actix|json|dense]
# [INPUT...]`, into `bin`, `mode`, `inputs` and `whats` (the routes or
# codecs, the baseline first), and prints a table's header.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build -q --release -p benches --bin encode-profile
bin=${CARGO_TARGET_DIR:-target}/release/encode-profile
mode=serve
if [ $# -gt 0 ] && { [ "$1" = serve ] || [ "$1" = standard ] || [ "$1" = validated ] || [ "$1" = actix ] || [ "$1" = json ] || [ "$1" = dense ]; }; then mode=$1; shift; fi
inputs=("$@")
[ ${#inputs[@]} -eq 0 ] && inputs=(tabular nested analytics github event-logs nested-config keyed nested-group tabular-20 nested-20)
if [ "$mode" = serve ]; then
  whats=("serve:axum::Json" "serve:negotiated json" "serve:negotiated md" "serve:negotiated mcp")
elif [ "$mode" = standard ]; then
  # The README's layer, `agent_codecs::standard().layer()`: the same
  # codecs with the standard response headers.
  whats=("serve:axum::Json" "serve:standard json" "serve:standard md" "serve:standard mcp")
elif [ "$mode" = validated ]; then
  # The README's layer with a validator the handler supplies
  # (`Negotiated(data).validator(..)`): the ETag derived from it, the
  # body not hashed.
  whats=("serve:axum::Json" "serve:validated json" "serve:validated md" "serve:validated mcp")
elif [ "$mode" = actix ]; then
  # The same codecs on actix-web, against its own `web::Json`.
  whats=("serve:actix web::Json" "serve:actix negotiated json" "serve:actix negotiated md" "serve:actix negotiated mcp")
elif [ "$mode" = json ]; then
  whats=("serve:axum::Json" "serve:negotiated json")
else
  whats=("codec-md" "codec-md dense")
fi

# The header of a table with a column per route (`UNIT` after each
# name, e.g. " µs") and a ratio column per route after the first.
table_header() {
  printf '| input |'
  for what in "${whats[@]}"; do printf ' %s%s |' "${what#serve:}" "$1"; done
  for what in "${whats[@]:1}"; do printf ' %s ÷ %s |' "${what#serve:}" "${whats[0]#serve:}"; done
  printf '\n|---|'
  for _ in "${whats[@]}" "${whats[@]:1}"; do printf -- '---:|'; done
  printf '\n'
}
