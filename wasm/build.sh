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
cmake --build "$build" --target hppproto_wasm hppproto_decode_wasm >/dev/null
mkdir -p "$out"
for module in hppproto hppproto-decode; do
  cp "$build/$module.wasm" "$out/$module.wasm"
  echo "built $out/$module.wasm ($(stat -c %s "$out/$module.wasm") bytes, $(gzip -9c "$out/$module.wasm" | wc -c) gzip)"
done
