#!/usr/bin/env bash
# Rebuilds the shipped module wasm/dist/hppproto.wasm from cpp/ with Debian's Emscripten.
# Usage: wasm/build.sh [OUTPUT_DIR]   (default wasm/dist; CI builds elsewhere and compares)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/wasm/dist}
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
export NODE_PATH=/usr/share/nodejs   # em++ -O2 and above need acorn from Debian's node-acorn
emcmake cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target hppproto_wasm >/dev/null
mkdir -p "$out"
cp "$build/hppproto.wasm" "$out/hppproto.wasm"
echo "built $out/hppproto.wasm ($(stat -c %s "$out/hppproto.wasm") bytes, $(gzip -9c "$out/hppproto.wasm" | wc -c) gzip)"
