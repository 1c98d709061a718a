// The names ProtoJSON reads fields and enum values by, which the binary schema table leaves out
// (decoding programs never need them). The JS runtime sends them, built from the same schema,
// the first time a message of the schema is read from JSON.
//
// Format, all little-endian u32 words, then the names' bytes (UTF-8):
//   magic 'HPPJ', message_count, enum_count, pool_offset (byte offset of the names' bytes)
//   per enum:    flags (json_flags), value_count, then per value: number (int32), name (offset, length)
//   per message: flags (json_flags), field_count, then per field, in the table's order:
//                json name (offset, length), .proto name (offset, length; an extension's is
//                "[full.name]"), enum index or ~0
// Name offsets are relative to pool_offset. Counts must match the schema table's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "schema.hpp"
#include "status.hpp"

namespace hppproto {

namespace json_flags {
// A well-known type whose JSON is not an object of its fields (Timestamp, Struct, wrappers, Any...),
// or the enum NullValue (null is its value): read by the JS runtime, not here.
constexpr uint32_t own_form = 1;
constexpr uint32_t all = 1;
}  // namespace json_flags

constexpr uint32_t json_names_magic = 0x4a505048;  // "HPPJ"

struct Name {
  const uint8_t* data = nullptr;
  uint32_t size = 0;
  bool equals(const uint8_t* s, size_t n) const noexcept {
    if (n != size) return false;
    for (size_t i = 0; i < n; ++i)  // names are short: a loop beats a call to memcmp
      if (s[i] != data[i]) return false;
    return true;
  }
};

// A byte of a JSON string as JSON.stringify writes it: itself, or its escape (quote, backslash,
// control characters). Writes at most 6 bytes at out; returns how many.
inline size_t json_escaped(uint8_t c, uint8_t* out) noexcept {
  if (c >= 0x20 && c != '"' && c != '\\') {
    *out = c;
    return 1;
  }
  out[0] = '\\';
  switch (c) {
    case '"': out[1] = '"'; return 2;
    case '\\': out[1] = '\\'; return 2;
    case '\b': out[1] = 'b'; return 2;
    case '\f': out[1] = 'f'; return 2;
    case '\n': out[1] = 'n'; return 2;
    case '\r': out[1] = 'r'; return 2;
    case '\t': out[1] = 't'; return 2;
    default:
      out[1] = 'u', out[2] = '0', out[3] = '0';
      out[4] = "0123456789abcdef"[c >> 4];
      out[5] = "0123456789abcdef"[c & 15];
      return 6;
  }
}

// The bytes of a little-endian word that a JSON string cannot hold as they are (quote, backslash,
// control characters), and with `non_ascii` the bytes above 0x7f too, each marked by its high bit.
// The lowest mark is exact: the first such byte. (Marks above it may be false, from the borrow of
// the subtractions.) One expression per variant: the reader's, written as the writer's plus
// `w & highs`, compiled to a slower loop (measured).
template <bool non_ascii = false>
constexpr uint64_t json_special_bytes(uint64_t w) noexcept {
  constexpr uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  const uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
  const uint64_t controls = non_ascii ? (w - ones * 0x20) | w : (w - ones * 0x20) & ~w;
  return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | controls) & highs;
}

class JsonNames {
 public:
  static constexpr uint32_t not_found = 0xffffffffu;

  // Copies and checks the names of `schema`. On failure returns false with status set (offset:
  // byte offset in the blob).
  bool load(const Schema& schema, const uint8_t* blob, size_t size, Status& status) {
    status.clear();
    bytes_.assign(blob, blob + size);
    WordReader r{bytes_.data(), bytes_.size()};
    uint32_t magic, message_count, enum_count, pool;
    if (!r.word(magic) || !r.word(message_count) || !r.word(enum_count) || !r.word(pool) ||
        magic != json_names_magic || message_count != schema.message_count() || pool > size || pool % 4 != 0)
      return status.fail(Error::invalid_schema, r.offset());
    const uint8_t* names = bytes_.data() + pool;
    const size_t names_size = size - pool;
    auto name = [&](Name& out) {
      uint32_t offset, length;
      if (!r.word(offset) || !r.word(length) || offset > names_size || length > names_size - offset) return false;
      out = Name{names + offset, length};
      return true;
    };
    enums_.resize(enum_count);
    for (EnumNames& e : enums_) {
      uint32_t flags, count;
      if (!r.word(flags) || (flags & ~json_flags::all) || !r.word(count) || count > r.remaining_words() / 3)
        return status.fail(Error::invalid_schema, r.offset());
      e.own_form = (flags & json_flags::own_form) != 0;
      e.first = static_cast<uint32_t>(values_.size());
      e.count = count;
      for (uint32_t i = 0; i < count; ++i) {
        EnumValueName v;
        uint32_t number;
        if (!r.word(number) || !name(v.name)) return status.fail(Error::invalid_schema, r.offset());
        v.number = static_cast<int32_t>(number);
        values_.push_back(v);
      }
    }
    messages_.resize(message_count);
    for (uint32_t mi = 0; mi < message_count; ++mi) {
      MessageNames& m = messages_[mi];
      uint32_t field_count;
      if (!r.word(m.flags) || (m.flags & ~json_flags::all) || !r.word(field_count) ||
          field_count != schema.message(mi).field_count || field_count > r.remaining_words() / 5)
        return status.fail(Error::invalid_schema, r.offset(), mi);
      m.first_field = static_cast<uint32_t>(fields_.size());
      const FieldDef* defs = schema.fields(schema.message(mi));
      for (uint32_t i = 0; i < field_count; ++i) {
        FieldNames f;
        if (!name(f.json) || !name(f.proto) || !r.word(f.enum_index)) return status.fail(Error::invalid_schema, r.offset(), mi);
        const bool is_enum = defs[i].type == FieldType::enum_;
        if (is_enum != (f.enum_index != not_found) || (is_enum && f.enum_index >= enum_count))
          return status.fail(Error::invalid_schema, r.offset(), mi);
        f.extension = f.proto.size != 0 && f.proto.data[0] == '[';
        fields_.push_back(f);
      }
      build_lookup(m, field_count);
    }
    if (r.offset() != pool) return status.fail(Error::invalid_schema, r.offset());
    build_keys();
    return true;
  }

  // False for a message the JS runtime reads: one with a JSON form of its own, or where one name
  // stands for two fields (the JS reader's choice between them is its own).
  bool readable(uint32_t mi) const noexcept {
    return !(messages_[mi].flags & json_flags::own_form) && !messages_[mi].ambiguous;
  }
  bool enum_own_form(uint32_t ei) const noexcept { return enums_[ei].own_form; }
  uint32_t enum_of(uint32_t mi, uint32_t field) const noexcept {
    return fields_[messages_[mi].first_field + field].enum_index;
  }

  // The field (index in its message) a key names, by json name or .proto name.
  uint32_t find(uint32_t mi, const uint8_t* key, size_t size) const noexcept {
    const MessageNames& m = messages_[mi];
    if (m.mask == 0) return not_found;
    for (uint32_t h = hash(key, size) & m.mask;; h = (h + 1) & m.mask) {
      const Slot& s = slots_[m.first_slot + h];
      if (s.field == 0) return not_found;
      const FieldNames& f = fields_[m.first_field + s.field - 1];
      if ((s.proto ? f.proto : f.json).equals(key, size)) return s.field - 1;
    }
  }

  struct FieldNames {
    Name json, proto;
    uint32_t enum_index;
    Name json_key, proto_key;  // as the writer writes them: quoted, escaped, then ':'
    bool extension;            // an extension field: its .proto name is its full name in brackets
  };
  // The names of a message's fields, in the table's order (field_count of them).
  const FieldNames* fields(uint32_t mi) const noexcept { return fields_.data() + messages_[mi].first_field; }

  // The first name declared for an enum number, or nullptr.
  const Name* enum_name(uint32_t ei, int32_t number) const noexcept {
    const EnumNames& e = enums_[ei];
    for (uint32_t i = 0; i < e.count; ++i)
      if (values_[e.first + i].number == number) return &values_[e.first + i].name;
    return nullptr;
  }

  // The number an enum value name stands for.
  bool enum_value(uint32_t ei, const uint8_t* name, size_t size, int32_t& number) const noexcept {
    const EnumNames& e = enums_[ei];
    for (uint32_t i = 0; i < e.count; ++i) {
      const EnumValueName& v = values_[e.first + i];
      if (v.name.equals(name, size)) {
        number = v.number;
        return true;
      }
    }
    return false;
  }

 private:
  struct EnumValueName {
    Name name;
    int32_t number;
  };
  struct EnumNames {
    uint32_t first = 0, count = 0;
    bool own_form = false;
  };
  struct Slot {
    uint32_t field = 0;  // 1 + index in the message; 0 for an empty slot
    bool proto = false;  // the .proto name rather than the json name
  };
  struct MessageNames {
    uint32_t flags = 0;
    uint32_t first_field = 0;
    uint32_t first_slot = 0;
    uint32_t mask = 0;  // slot count - 1; 0 for a message without fields
    bool ambiguous = false;
  };

  static uint32_t hash(const uint8_t* s, size_t n) noexcept {
    uint32_t h = 2166136261u;  // FNV-1a
    for (size_t i = 0; i < n; ++i) h = (h ^ s[i]) * 16777619u;
    return h;
  }

  // An open-addressing table per message, at most half full, of both names of every field.
  void build_lookup(MessageNames& m, uint32_t field_count) {
    if (field_count == 0) return;
    uint32_t slots = 4;
    while (slots < field_count * 4) slots *= 2;
    m.first_slot = static_cast<uint32_t>(slots_.size());
    m.mask = slots - 1;
    slots_.resize(slots_.size() + slots);
    auto insert = [&](const Name& n, uint32_t field, bool proto) {
      if (find(static_cast<uint32_t>(&m - messages_.data()), n.data, n.size) != not_found) {
        m.ambiguous = m.ambiguous || !(proto && fields_[m.first_field + field].json.equals(n.data, n.size));
        return;  // a field's .proto name that is its json name too is found already
      }
      for (uint32_t h = hash(n.data, n.size) & m.mask;; h = (h + 1) & m.mask) {
        Slot& s = slots_[m.first_slot + h];
        if (s.field == 0) {
          s = Slot{field + 1, proto};
          return;
        }
      }
    };
    for (uint32_t i = 0; i < field_count; ++i) insert(fields_[m.first_field + i].json, i, false);
    for (uint32_t i = 0; i < field_count; ++i) insert(fields_[m.first_field + i].proto, i, true);
  }

  // The keys the writer writes, in a pool of their own.
  void build_keys() {
    std::vector<std::pair<size_t, size_t>> spans;
    keys_.clear();
    auto add = [&](const Name& n) {
      const size_t start = keys_.size();
      uint8_t escaped[6];
      keys_.push_back('"');
      for (uint32_t i = 0; i < n.size; ++i) keys_.insert(keys_.end(), escaped, escaped + json_escaped(n.data[i], escaped));
      keys_.push_back('"');
      keys_.push_back(':');
      spans.emplace_back(start, keys_.size() - start);
    };
    for (const FieldNames& f : fields_) add(f.json), add(f.proto);
    keys_.resize(keys_.size() + 8);  // the writer copies keys eight bytes at a time
    for (size_t i = 0; i < fields_.size(); ++i) {
      fields_[i].json_key = Name{keys_.data() + spans[2 * i].first, static_cast<uint32_t>(spans[2 * i].second)};
      fields_[i].proto_key = Name{keys_.data() + spans[2 * i + 1].first, static_cast<uint32_t>(spans[2 * i + 1].second)};
    }
  }

  std::vector<uint8_t> bytes_;
  std::vector<uint8_t> keys_;
  std::vector<MessageNames> messages_;
  std::vector<FieldNames> fields_;
  std::vector<Slot> slots_;
  std::vector<EnumNames> enums_;
  std::vector<EnumValueName> values_;
};

}  // namespace hppproto
