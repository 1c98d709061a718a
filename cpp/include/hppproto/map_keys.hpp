// Whether a map's entry records hold each key once: the JSON reader refuses a key given twice, and
// the JSON writer leaves a map whose wire data repeated a key to the JS writer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "record.hpp"
#include "schema.hpp"

namespace hppproto {

// Keys compare by value (strings by their bytes); an entry record missing altogether has the zero key.
inline bool distinct_map_keys(const FieldDef& key, const RecordPtr* recs, uint32_t count,
                              std::vector<uint32_t>& scratch) noexcept {
  static constexpr uint8_t zero[sizeof(uint64_t) + sizeof(BytesSlot)] = {};
  const bool is_string = key.type == FieldType::string;
  const size_t width = value_size(key.type);
  auto bytes_of = [&](uint32_t i, size_t& n) -> const uint8_t* {
    const uint8_t* k = recs[i] ? recs[i] + key.offset : zero;
    n = width;
    if (!is_string) return k;
    BytesSlot s;
    std::memcpy(&s, k, sizeof s);
    n = s.size;
    return s.data;
  };
  auto same = [&](uint32_t i, uint32_t j) {
    size_t n, m;
    const uint8_t* a = bytes_of(i, n);
    const uint8_t* b = bytes_of(j, m);
    return n == m && (n == 0 || std::memcmp(a, b, n) == 0);
  };
  if (count <= 16) {
    for (uint32_t i = 1; i < count; ++i)
      for (uint32_t j = 0; j < i; ++j)
        if (same(i, j)) return false;
    return true;
  }
  // larger maps: an open-addressing set of entry indexes
  uint32_t slots = 32;
  while (slots < count * 2) slots *= 2;
  scratch.assign(slots, 0);
  for (uint32_t i = 0; i < count; ++i) {
    size_t n;
    const uint8_t* b = bytes_of(i, n);
    uint32_t h = 2166136261u;  // FNV-1a
    for (size_t k = 0; k < n; ++k) h = (h ^ b[k]) * 16777619u;
    for (h &= slots - 1; scratch[h] != 0; h = (h + 1) & (slots - 1))
      if (same(scratch[h] - 1, i)) return false;
    scratch[h] = i + 1;
  }
  return true;
}

}  // namespace hppproto
