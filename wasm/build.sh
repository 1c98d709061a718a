#!/usr/bin/env bash
# Rebuilds the shipped modules wasm/dist/hppproto.wasm and hppproto-decode.wasm (no encoder) from
# cpp/ with Debian's Emscripten.
# Usage: wasm/build.sh [OUTPUT_DIR]   (default wasm/dist; CI builds elsewhere and compares)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/wasm/dist}
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
export NODE_PATH=/usr/share/nodejs   # em++ -O2 and above need acorn from Debian's node-acorn
emcmake cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# the build log is shown only when it fails (a failed build must not leave the old module in silence)
cmake --build "$build" --target hppproto_wasm hppproto_decode_wasm >"$build/log" 2>&1 || { cat "$build/log" >&2; exit 1; }
mkdir -p "$out"
for module in hppproto hppproto-decode; do
  cp "$build/$module.wasm" "$out/$module.wasm"
  echo "built $out/$module.wasm ($(stat -c %s "$out/$module.wasm") bytes, $(gzip -9c "$out/$module.wasm" | wc -c) gzip)"
done
