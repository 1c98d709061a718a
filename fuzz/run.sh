#!/usr/bin/env bash
# Every fuzzer for SECONDS each (default 60): the native libFuzzer targets (cpp/fuzz.sh), then the
# JS differential fuzzer against @bufbuild/protobuf, the compiled decoders against the codec, the generated decoders of plain
# objects against records, the boundary fuzzer, the JSON fast-path fuzzer
# and the runtime schemas' checks. Needs npm run build first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
bash "$root/test/prerequisites.sh" fuzz
bash "$root/cpp/fuzz.sh" "$seconds"
echo "== differential: hppproto against @bufbuild/protobuf"
node "$root/fuzz/differential.mjs" "$seconds"
echo "== compiled: the decoders compiled for a schema against the codec's table-driven decoder"
node "$root/fuzz/compiled.mjs" "$seconds"
echo "== plain: the generated decoders of plain objects against decode() through records"
node "$root/fuzz/plain.mjs" "$seconds"
echo "== boundary: views, arenas, re-entrant encodes and stack overflows across the JS/WASM boundary"
node --expose-gc "$root/fuzz/boundary.mjs" "$seconds"
echo "== json: the ProtoJSON reader's fast path (JSON.parse) against its strict parser"
node "$root/fuzz/json.mjs" "$seconds"
echo "== runtime schemas: linear .proto handling, dropped schemas collected"
node --expose-gc "$root/fuzz/schemas.mjs"
