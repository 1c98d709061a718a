// The hand-written tick decoder (tick.hpp) as an export of the codec: bench/compiled.mjs links this
// file with wasm/exports.cpp, so that the table-driven, hand-written and compiled decoders share one
// memory, one arena and the same input, and are called the same way.
#include <emscripten/emscripten.h>

#include "tick.hpp"

extern "C" EMSCRIPTEN_KEEPALIVE hppproto::RecordPtr bench_tick_decode(hppproto::Arena* arena, const uint8_t* data, uint32_t size) {
  return bench::tick::decode(*arena, data, size);
}
