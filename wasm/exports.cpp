// The WASM module's exports: plain C functions taking (pointer, length), one call per message or
// batch. The JS runtime (ts/runtime.ts) reads the status, the limits and arena cursors directly
// from linear memory, at the offsets in ts/abi.ts: hp_abi() gives the compiler's.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <new>

#include "hppproto/arena.hpp"
#include "hppproto/decoder.hpp"
#ifndef HPPPROTO_DECODE_ONLY
#include "hppproto/encoder.hpp"
#include "hppproto/json_decoder.hpp"
#include "hppproto/json_encoder.hpp"
#include "hppproto/json_names.hpp"
#endif
#include "hppproto/schema.hpp"
#include "hppproto/status.hpp"

using namespace hppproto;

namespace {
Status g_status;
Limits g_limits;
#ifndef HPPPROTO_DECODE_ONLY
ScratchBuffer<uint32_t> g_sizes;  // the encoder's size cache
ScratchBuffer<uint8_t> g_output;  // encoded bytes, copied out by the JS side after each call
std::vector<uint64_t> g_json_seen;  // the JSON reader's fields-given bits
std::vector<uint32_t> g_json_keys;  // map key sets of the JSON reader and writer
std::vector<double> g_json_numbers;  // the doubles JSON text leaves for JS to print
#endif

bool check_message_index(const Schema* schema, uint32_t message_index) {
  if (message_index < schema->message_count()) return true;
  g_status.fail(Error::invalid_schema, 0, message_index);
  return false;
}
}  // namespace

extern "C" {

// The offsets and sizes the JS side reads and writes in place, in ts/abi.ts's order; the runtime
// refuses a module whose numbers differ from its own.
EMSCRIPTEN_KEEPALIVE const uint32_t* hp_abi() {
  static const uint32_t abi[] = {
      Arena::cur_offset(),      Arena::end_offset(),         Arena::head_offset(),
      offsetof(Status, code),   offsetof(Status, offset),    offsetof(Status, path_size),
      offsetof(Status, path_truncated), offsetof(Status, detail), offsetof(Status, path),
      sizeof(PathEntry),        offsetof(PathEntry, message_index), offsetof(PathEntry, field_number),
      offsetof(PathEntry, element_index),
      offsetof(Limits, max_depth), offsetof(Limits, max_message_size), offsetof(Limits, max_elements),
      offsetof(Limits, max_amplification), offsetof(Limits, allow_partial),
      sizeof(BytesSlot),        sizeof(ArraySlot),           unknown_fields_offset,
      Limits::budget_allowance, Limits::json_max_depth,
  };
  return abi;
}

EMSCRIPTEN_KEEPALIVE Status* hp_status() { return &g_status; }
EMSCRIPTEN_KEEPALIVE Limits* hp_limits() { return &g_limits; }

EMSCRIPTEN_KEEPALIVE Schema* hp_schema_load(const uint8_t* table, uint32_t size) {
  auto* schema = new (std::nothrow) Schema();
  if (!schema) {
    g_status.fail(Error::out_of_memory, 0);
    return nullptr;
  }
  if (!schema->load(table, size, g_status)) {
    delete schema;
    return nullptr;
  }
  return schema;
}

EMSCRIPTEN_KEEPALIVE void hp_schema_free(Schema* schema) { delete schema; }

EMSCRIPTEN_KEEPALIVE Arena* hp_arena_new(uint32_t limit_bytes, uint32_t first_block) {
  return new (std::nothrow) Arena(limit_bytes, first_block);
}
EMSCRIPTEN_KEEPALIVE void hp_arena_free(Arena* arena) { delete arena; }
EMSCRIPTEN_KEEPALIVE void hp_arena_reset(Arena* arena) { arena->reset(); }
EMSCRIPTEN_KEEPALIVE uint32_t hp_arena_reserved(const Arena* arena) {
  return static_cast<uint32_t>(arena->reserved_bytes());
}
// Drops what was allocated since the JS side read (head, cur) from the arena: a failed decode's
// input copy and records, so that failures do not accumulate in long-lived arenas.
EMSCRIPTEN_KEEPALIVE void hp_arena_rewind(Arena* arena, const void* head, uint8_t* cur) {
  arena->rewind(Arena::Checkpoint{head, cur});
}
// For input copies that do not fit the current block; the JS side bump-allocates the rest itself.
EMSCRIPTEN_KEEPALIVE uint8_t* hp_arena_alloc(Arena* arena, uint32_t size) {
  uint8_t* p = arena->allocate(size);
  if (!p) g_status.fail(Error::out_of_memory, 0, size);
  return p;
}

// An allocation of a decoder compiled for a schema (codegen/wasm/decoder.ts) that its arena's current
// block cannot hold: the next block, under the budget Decoder::Budget keeps for the decode, which
// began when the arena held `reserved` bytes and reads `input_size`. Returns the allocation, or
// nullptr with the status failed as the table-driven decoder fails an allocation at offset `at`.
EMSCRIPTEN_KEEPALIVE uint8_t* hp_arena_grow(Arena* arena, uint32_t size, uint32_t reserved, uint32_t input_size, uint32_t at) {
  const size_t saved = arena->limit();
  const size_t cap = budget_cap(reserved, g_limits, input_size);
  const bool budget_in_force = cap < saved;
  if (budget_in_force) arena->set_limit(cap);
  uint8_t* p = arena->allocate(size);
  arena->set_limit(saved);
  if (p) return p;
  if (budget_in_force && arena->failed_on_limit()) g_status.fail(Error::memory_budget, at, g_limits.max_amplification);
  else g_status.fail(Error::out_of_memory, at);
  return nullptr;
}

// reset != 0 empties the arena first: the scratch-arena path, whose input sits in a staging buffer
// outside the arena, costs one call per message.
EMSCRIPTEN_KEEPALIVE RecordPtr hp_decode(const Schema* schema, uint32_t message_index, Arena* arena,
                                         const uint8_t* data, uint32_t size, int reset) {
  if (!check_message_index(schema, message_index)) return nullptr;
  if (reset) arena->reset();
  return Decoder(*schema, *arena, g_status, g_limits).decode(message_index, data, size);
}

EMSCRIPTEN_KEEPALIVE int hp_decode_delimited(const Schema* schema, uint32_t message_index, Arena* arena,
                                             const uint8_t* data, uint32_t size, int reset, ArraySlot* out) {
  if (!check_message_index(schema, message_index)) return 0;
  if (reset) arena->reset();
  return Decoder(*schema, *arena, g_status, g_limits).decode_delimited(message_index, data, size, *out);
}

#ifndef HPPPROTO_DECODE_ONLY  // the decode-only module (hppproto/decode) leaves the encoder out

// Encodes the message at rec into the output buffer (hp_output()); returns its size, or -1 with
// the status set.
EMSCRIPTEN_KEEPALIVE int32_t hp_encode(const Schema* schema, uint32_t message_index, const uint8_t* rec) {
  if (!check_message_index(schema, message_index)) return -1;
  Encoder encoder(*schema, g_status, g_limits, g_sizes);
  size_t size;
  if (!encoder.measure(message_index, rec, size)) return -1;
  if (!g_output.reserve(size)) {
    g_status.fail(Error::out_of_memory, 0, static_cast<uint32_t>(size));
    return -1;
  }
  encoder.write(message_index, rec, g_output.data());
  return static_cast<int32_t>(size);
}

EMSCRIPTEN_KEEPALIVE int32_t hp_encoded_size(const Schema* schema, uint32_t message_index, const uint8_t* rec) {
  if (!check_message_index(schema, message_index)) return -1;
  size_t size;
  if (!Encoder(*schema, g_status, g_limits, g_sizes).measure(message_index, rec, size)) return -1;
  return static_cast<int32_t>(size);
}

// `count` records at recs, each written after its length.
EMSCRIPTEN_KEEPALIVE int32_t hp_encode_delimited(const Schema* schema, uint32_t message_index,
                                                 const RecordPtr* recs, uint32_t count) {
  if (!check_message_index(schema, message_index)) return -1;
  Encoder encoder(*schema, g_status, g_limits, g_sizes);
  size_t size;
  if (!encoder.measure_delimited(message_index, recs, count, size)) return -1;
  if (!g_output.reserve(size)) {
    g_status.fail(Error::out_of_memory, 0, static_cast<uint32_t>(size));
    return -1;
  }
  encoder.write_delimited(message_index, recs, count, g_output.data());
  return static_cast<int32_t>(size);
}

EMSCRIPTEN_KEEPALIVE uint8_t* hp_output() { return g_output.data(); }

// The ProtoJSON names of a schema's fields and enum values (json_names.hpp), or nullptr with the
// status set.
EMSCRIPTEN_KEEPALIVE JsonNames* hp_json_names_load(const Schema* schema, const uint8_t* blob, uint32_t size) {
  auto* names = new (std::nothrow) JsonNames();
  if (!names) {
    g_status.fail(Error::out_of_memory, 0);
    return nullptr;
  }
  if (!names->load(*schema, blob, size, g_status)) {
    delete names;
    return nullptr;
  }
  return names;
}

EMSCRIPTEN_KEEPALIVE void hp_json_names_free(JsonNames* names) { delete names; }

// The record of ProtoJSON text, or nullptr when the text is the JS reader's (json_decoder.hpp).
EMSCRIPTEN_KEEPALIVE RecordPtr hp_json_decode(const Schema* schema, const JsonNames* names, uint32_t message_index,
                                              Arena* arena, const uint8_t* text, uint32_t size, int reset) {
  if (!check_message_index(schema, message_index)) return nullptr;
  if (reset) arena->reset();
  return JsonDecoder(*schema, *names, *arena, g_limits, g_status, g_json_seen, g_json_keys).decode(message_index, text, size);
}

// ProtoJSON text of the message at rec into the output buffer (hp_output()): its size, or -1 when the
// JS writer writes it (json_encoder.hpp). Doubles JS prints are at hp_json_numbers(), count in *numbers.
EMSCRIPTEN_KEEPALIVE int32_t hp_json_encode(const Schema* schema, const JsonNames* names, uint32_t message_index,
                                            const uint8_t* rec, uint32_t flags, uint32_t* numbers) {
  if (!check_message_index(schema, message_index)) return -1;
  size_t size;
  if (!JsonEncoder(*schema, *names, g_limits, flags, g_output, g_json_numbers, g_json_keys).encode(message_index, rec, size))
    return -1;
  *numbers = static_cast<uint32_t>(g_json_numbers.size());
  return static_cast<int32_t>(size);
}

EMSCRIPTEN_KEEPALIVE const double* hp_json_numbers() { return g_json_numbers.data(); }

// A UTF-8 string as a JSON string literal into the output buffer (hp_output()): its size, or -1
// past the size limit or out of memory. JS's JSON.stringify is several times slower for long strings.
EMSCRIPTEN_KEEPALIVE int32_t hp_json_quote(const uint8_t* s, uint32_t size) {
  if (size > g_limits.max_message_size) return -1;
  JsonText text(g_limits, g_output);
  return text.string(s, size) ? static_cast<int32_t>(text.used()) : -1;
}

#endif  // HPPPROTO_DECODE_ONLY

}  // extern "C"
