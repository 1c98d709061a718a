// Test helpers: the tests' schemas (tables and record layouts made by the runtime's own layout
// code: cpp/test/schemas.mjs writes them into test_schemas.hpp for this build's pointer width),
// table words by hand, and protobuf wire bytes by hand.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hppproto/record.hpp"
#include "hppproto/schema.hpp"
#include "hppproto/wire.hpp"

namespace hppproto::test {

/** Where a field lives in its message's record. */
struct FieldSpec {
  uint32_t number;
  uint32_t offset;
  uint32_t presence;  // the hasbit position, or a oneof's case slot offset
};

struct MessageSpec {
  uint32_t record_size;
  std::vector<FieldSpec> fields;
  const FieldSpec& field(uint32_t number) const {
    for (const auto& f : fields)
      if (f.number == number) return f;
    static const FieldSpec none{0, 0, 0};
    return none;
  }
};

/** A schema's table, as the runtime builds it, and its messages' layouts. */
struct TestSchema {
  std::vector<uint8_t> table;
  std::vector<MessageSpec> messages;
};

/** Overwrites table word `word` (a table is little-endian 32-bit words). */
inline void set_word(std::vector<uint8_t>& t, size_t word, uint32_t v) {
  for (int i = 0; i < 4; ++i) t[word * 4 + i] = static_cast<uint8_t>(v >> (8 * i));
}

// Wire bytes by hand.
struct Wire {
  std::vector<uint8_t> bytes;
  Wire& varint(uint64_t v) {
    uint8_t buf[10];
    bytes.insert(bytes.end(), buf, write_varint(buf, v));
    return *this;
  }
  Wire& tag(uint32_t number, WireType wt) { return varint(make_tag(number, wt)); }
  Wire& raw(std::initializer_list<uint8_t> b) {
    bytes.insert(bytes.end(), b);
    return *this;
  }
  Wire& fixed32(uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Wire& fixed64(uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Wire& field_varint(uint32_t n, uint64_t v) { return tag(n, WireType::varint).varint(v); }
  Wire& field_fixed32(uint32_t n, uint32_t v) { return tag(n, WireType::fixed32).fixed32(v); }
  Wire& field_fixed64(uint32_t n, uint64_t v) { return tag(n, WireType::fixed64).fixed64(v); }
  Wire& field_bytes(uint32_t n, const std::string& s) {
    tag(n, WireType::len).varint(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
    return *this;
  }
  Wire& field_message(uint32_t n, const Wire& inner) {
    tag(n, WireType::len).varint(inner.bytes.size());
    bytes.insert(bytes.end(), inner.bytes.begin(), inner.bytes.end());
    return *this;
  }
  Wire& append(const Wire& other) {
    bytes.insert(bytes.end(), other.bytes.begin(), other.bytes.end());
    return *this;
  }
};

template <class T>
T load(const uint8_t* rec, uint32_t offset) {
  T v;
  std::memcpy(&v, rec + offset, sizeof v);
  return v;
}

inline bool has_bit(const uint8_t* rec, const FieldSpec& f) {
  return rec[f.presence >> 3] & (1u << (f.presence & 7));
}

inline std::string bytes_at(const uint8_t* rec, uint32_t offset) {
  const auto s = load<BytesSlot>(rec, offset);
  return std::string(reinterpret_cast<const char*>(s.data), s.size);
}

}  // namespace hppproto::test
