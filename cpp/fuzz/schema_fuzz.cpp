// The schema table validator: any bytes either load or are rejected; a table that loads must be
// safe to decode with, so every message of it decodes a few fixed payloads without a crash.
#include <cstring>

#include "hppproto/decoder.hpp"
#include "hppproto/schema.hpp"

using namespace hppproto;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Schema schema;
  Status status;
  if (!schema.load(data, size, status)) return 0;
  // every wire type, nested lengths, a group, a packed run and a map-entry shape
  static const uint8_t payloads[][16] = {
      {0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1d, 1, 2, 3},
      {0x0a, 0x04, 0x08, 0x01, 0x12, 0x00, 0x13, 0x08, 0x01, 0x14, 0x22, 0x03, 1, 2, 3, 0},
      {0x22, 0x08, 0x0a, 0x02, 'h', 'i', 0x12, 0x02, 0x08, 0x07, 0x2a, 0x02, 0xff, 0x7f, 0, 0},
  };
  const Limits limits;
  for (uint32_t m = 0; m < schema.message_count() && m < 64; ++m) {
    for (const auto& payload : payloads) {
      Arena arena;
      uint8_t* input = arena.allocate(sizeof payload);
      std::memcpy(input, payload, sizeof payload);
      Decoder(schema, arena, status, limits).decode(m, input, sizeof payload);
    }
  }
  return 0;
}
