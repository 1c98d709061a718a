#!/usr/bin/env bash
# libFuzzer targets under AddressSanitizer and UndefinedBehaviorSanitizer (Debian's clang-14 with
# libclang-rt-14-dev, lib32stdc++-12-dev and libc6-dev-i386):
# the decoder with the encoder round trip on the unittest and conformance schemas, the ProtoJSON
# reader on the same schemas (what it reads must encode, decode and encode back), the schema
# table validator, and the arena with sizes near the 32-bit limits. Usage: cpp/fuzz.sh [SECONDS per target, default 60]. Crashes are saved under
# build/fuzz/ (crash-*) and make the script fail: turn each into a regression test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
out="$root/build/fuzz"
mkdir -p "$out"
cxx=$(command -v clang++-14 || command -v clang++)
# 32-bit, as wasm32: hppproto-gen's tables lay records out for 4-byte pointers, and the fuzzers
# decode with the very tables that ship
flags=(-m32 -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I "$root/cpp/include")
for target in decode_fuzz json_fuzz schema_fuzz arena_fuzz; do
  "$cxx" "${flags[@]}" "$root/cpp/fuzz/$target.cpp" -o "$out/$target"
done
node "$root/cpp/fuzz/prepare.mjs" "$out"

run() {  # name, binary, corpus, [dictionary]
  local name=$1 bin=$2 corpus=$3 dict=${4:-$root/cpp/fuzz/wire.dict}
  mkdir -p "$corpus"
  local log="$out/$name.log"
  if ! (cd "$out" && "$bin" -max_total_time="$seconds" -print_final_stats=1 -dict="$dict" \
        -max_len=4096 -timeout=10 -rss_limit_mb=2048 "$corpus" >"$log" 2>&1); then
    tail -40 "$log"
    echo "fuzz: $name FAILED (input saved in $out)" >&2
    return 1
  fi
  echo "fuzz: $name: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') inputs in ${seconds}s, no crash"
}

mkdir -p "$out/corpus-schema"
cp "$out/unittest.table" "$out/conformance.table" "$out/corpus-schema/"
HPPPROTO_FUZZ_TABLE="$out/unittest.table" run decode-unittest "$out/decode_fuzz" "$out/corpus-unittest"
HPPPROTO_FUZZ_TABLE="$out/conformance.table" run decode-conformance "$out/decode_fuzz" "$out/corpus-conformance"
for set in unittest conformance; do
  HPPPROTO_FUZZ_TABLE="$out/$set.table" HPPPROTO_FUZZ_NAMES="$out/$set.names" \
    run "json-$set" "$out/json_fuzz" "$out/corpus-json-$set" "$root/cpp/fuzz/json.dict"
done
run schema "$out/schema_fuzz" "$out/corpus-schema"
# sizes near 2^31 reach malloc: it may say no, which the arena must handle
ASAN_OPTIONS=allocator_may_return_null=1 run arena "$out/arena_fuzz" "$out/corpus-arena"
