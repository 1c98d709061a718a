#!/usr/bin/env bash
# The C++ unit tests: natively under AddressSanitizer and UndefinedBehaviorSanitizer, then as wasm
# under node (32-bit size_t). test/prerequisites.sh names what they need.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# the tests' schema tables are made by the runtime's layout code (cpp/test/schemas.mjs)
[[ -f "$root/dist/ts/schema.js" ]] || { echo "cpp/test.sh: run npm run build first (the tests' tables come from dist/ts)" >&2; exit 1; }
cmake -S "$root" -B "$root/build/native" -G Ninja -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build/native" >/dev/null
ctest --test-dir "$root/build/native" --output-on-failure
export NODE_PATH=/usr/share/nodejs
emcmake cmake -S "$root" -B "$root/build/wasm-tests" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DHPPPROTO_WASM_TESTS=ON -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
cmake --build "$root/build/wasm-tests" --target codec_test_wasm >/dev/null
ctest --test-dir "$root/build/wasm-tests" --output-on-failure
