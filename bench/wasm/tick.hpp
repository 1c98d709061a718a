// A decoder written by hand for bench.tick.Tick that builds the same records as the table-driven
// decoder: the reference that the table-driven and compiled decoders are measured against, run by
// bench/wasm/decode.cpp and, as an export of the codec built for bench/compiled.mjs, by
// bench/wasm/handwritten.cpp. Benchmark only, not shipped.
#pragma once
#include <cstdint>
#include <cstring>

#include "hppproto/decoder.hpp"

namespace bench {
using namespace hppproto;

// Record layout of bench.tick.Tick and Level as hppproto-gen lays them out (the program checks
// that both decoders produce the same bytes before timing them).
namespace tick {
constexpr size_t tick_size = 72, level_size = 32;
constexpr uint32_t symbol = 32, price = 16, quantity = 40, side = 44, timestamp = 24, bids = 48, asks = 60;
constexpr uint32_t level_price = 16, level_quantity = 24;

inline bool varint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
  return read_short_varint(p, end, v) == VarintResult::ok;
}

inline bool level(const uint8_t* p, const uint8_t* end, uint8_t* rec) {
  while (p < end) {
    const uint32_t tag = *p++;
    if (tag == 0x09) {
      if (end - p < 8) return false;
      std::memcpy(rec + level_price, p, 8);
      p += 8;
    } else if (tag == 0x10) {
      uint64_t v;
      if (!varint(p, end, v)) return false;
      const auto q = static_cast<uint32_t>(v);
      std::memcpy(rec + level_quantity, &q, 4);
    } else {
      return false;
    }
  }
  return true;
}

inline bool levels(Arena& arena, const uint8_t*& p, const uint8_t* end, uint8_t* slot) {
  uint64_t len;
  if (!varint(p, end, len) || len > static_cast<uint64_t>(end - p)) return false;
  uint8_t* sub = arena.allocate_zeroed(level_size);
  if (!sub) return false;
  ArraySlot arr;
  std::memcpy(&arr, slot, sizeof arr);
  if (arr.size == arr.capacity) {
    const uint32_t cap = arr.capacity ? arr.capacity * 2 : 4;
    void* data = arena.allocate(cap * sizeof(RecordPtr));
    if (!data) return false;
    if (arr.size) std::memcpy(data, arr.data, arr.size * sizeof(RecordPtr));
    arr.data = data;
    arr.capacity = cap;
  }
  static_cast<RecordPtr*>(arr.data)[arr.size++] = sub;
  std::memcpy(slot, &arr, sizeof arr);
  if (!level(p, p + len, sub)) return false;
  p += len;
  return true;
}

inline uint8_t* decode(Arena& arena, const uint8_t* p, size_t n) {
  const uint8_t* end = p + n;
  uint8_t* rec = arena.allocate_zeroed(tick_size);
  if (!rec) return nullptr;
  while (p < end) {
    const uint32_t tag = *p++;
    uint64_t v;
    switch (tag) {
      case 0x0a: {
        if (!varint(p, end, v) || v > static_cast<uint64_t>(end - p) || !is_valid_utf8(p, v)) return nullptr;
        const BytesSlot s{p, static_cast<uint32_t>(v)};
        std::memcpy(rec + symbol, &s, sizeof s);
        p += v;
        break;
      }
      case 0x11:
        if (end - p < 8) return nullptr;
        std::memcpy(rec + price, p, 8);
        p += 8;
        break;
      case 0x18:
      case 0x20: {
        if (!varint(p, end, v)) return nullptr;
        const auto x = static_cast<uint32_t>(v);
        std::memcpy(rec + (tag == 0x18 ? quantity : side), &x, 4);
        break;
      }
      case 0x28:
        if (!varint(p, end, v)) return nullptr;
        std::memcpy(rec + timestamp, &v, 8);
        break;
      case 0x32:
      case 0x3a:
        if (!levels(arena, p, end, rec + (tag == 0x32 ? bids : asks))) return nullptr;
        break;
      default:
        return nullptr;
    }
  }
  return rec;
}
}  // namespace tick

}  // namespace bench
