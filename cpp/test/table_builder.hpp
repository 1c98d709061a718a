// Test helpers: builds schema tables with a record layout for this build's pointer size (the code
// generator does the same for wasm32), and writes protobuf wire bytes by hand.
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

struct FieldSpec {
  uint32_t number;
  FieldType type;
  Label label = Label::implicit;
  uint16_t flags = 0;
  uint32_t aux = no_aux;
  uint32_t oneof = 0;  // fields with the same non-zero id form one oneof
  // filled by layout():
  uint32_t offset = 0;
  uint32_t presence = 0;
};

struct MessageSpec {
  std::vector<FieldSpec> fields;
  uint32_t record_size = 0;
  bool message_set = false;
  const FieldSpec& field(uint32_t number) const {
    for (const auto& f : fields)
      if (f.number == number) return f;
    static FieldSpec none{0, FieldType::int32};
    return none;
  }
};

inline uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

inline void layout(MessageSpec& m) {
  uint32_t pos = record_header_size;
  uint32_t hasbit = 0;
  uint32_t explicit_count = 0;
  for (const auto& f : m.fields) explicit_count += f.label == Label::explicit_;
  const uint32_t hasbit_base = pos * 8;
  pos += (explicit_count + 7) / 8;
  for (auto& f : m.fields) {
    if (f.label == Label::explicit_) f.presence = hasbit_base + hasbit++;
  }
  // one case slot and one value slot per oneof, sized for the largest member
  std::vector<uint32_t> oneof_ids;
  for (const auto& f : m.fields)
    if (f.oneof && std::find(oneof_ids.begin(), oneof_ids.end(), f.oneof) == oneof_ids.end())
      oneof_ids.push_back(f.oneof);
  for (uint32_t id : oneof_ids) {
    pos = align_up(pos, 4);
    const uint32_t case_offset = pos;
    pos += 4;
    uint32_t size = 0;
    for (const auto& f : m.fields)
      if (f.oneof == id) size = std::max(size, f.label == Label::repeated ? 0 : value_size(f.type));
    pos = align_up(pos, 8);
    for (auto& f : m.fields) {
      if (f.oneof == id) {
        f.label = Label::oneof;
        f.presence = case_offset;
        f.offset = pos;
      }
    }
    pos += size;
  }
  for (uint32_t align : {8u, 4u, 2u, 1u}) {
    for (auto& f : m.fields) {
      if (f.oneof) continue;
      const bool array = f.label == Label::repeated || f.label == Label::map;
      const uint32_t a = array ? uint32_t{alignof(ArraySlot)} : value_alignment(f.type);
      if (a != align) continue;
      pos = align_up(pos, a);
      f.offset = pos;
      pos += array ? uint32_t{sizeof(ArraySlot)} : value_size(f.type);
    }
  }
  m.record_size = align_up(pos, 8);
}

class TableBuilder {
 public:
  uint32_t add_enum(std::vector<int32_t> values) {
    enums_.push_back(std::move(values));
    return static_cast<uint32_t>(enums_.size() - 1);
  }
  uint32_t add_message(MessageSpec m) {
    messages_.push_back(std::move(m));
    return static_cast<uint32_t>(messages_.size() - 1);
  }
  MessageSpec& message(uint32_t i) { return messages_[i]; }

  std::vector<uint8_t> build() {
    std::vector<uint8_t> out;
    put(out, table_magic);
    put(out, table_version);
    put(out, static_cast<uint32_t>(enums_.size()));
    put(out, static_cast<uint32_t>(messages_.size()));
    for (const auto& e : enums_) {
      put(out, static_cast<uint32_t>(e.size()));
      for (int32_t v : e) put(out, static_cast<uint32_t>(v));
    }
    for (auto& m : messages_) {
      layout(m);
      put(out, m.record_size);
      put(out, m.message_set ? message_flags::message_set : 0);
      put(out, static_cast<uint32_t>(m.fields.size()));
      for (const auto& f : m.fields) {
        put(out, f.number);
        put(out, static_cast<uint32_t>(f.type) | static_cast<uint32_t>(f.label) << 8 |
                     static_cast<uint32_t>(f.flags) << 16);
        put(out, f.offset);
        put(out, f.presence);
        put(out, f.aux);
      }
    }
    return out;
  }

  static void put(std::vector<uint8_t>& out, uint32_t w) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }

 private:
  std::vector<std::vector<int32_t>> enums_;
  std::vector<MessageSpec> messages_;
};

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
