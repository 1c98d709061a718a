// Schema tables: the compact binary form the code generator emits, and its validated in-memory form.
//
// Table format, all little-endian u32 words:
//   magic 'HPPT', version, enum_count, message_count
//   per enum:    value_count, then value_count int32 values in strictly ascending order
//   per message: record_size, flags (message_flags), field_count, then field_count fields of 5
//   words, by ascending number:
//     number
//     type | label << 8 | flags << 16
//     offset      slot offset in the record
//     presence    explicit: hasbit position (bit index from the record start);
//                 oneof: offset of the u32 case slot holding the set member's number
//     aux         message index (message, group, map entry) or enum index (closed enum), else ~0
//
// Record layouts are decided by the code generator; this side only checks that they are safe:
// every slot inside the record, aligned, and no two fields sharing bytes (oneof members excepted,
// which share one slot). Recursive messages are fine: records refer to each other by pointer and
// decoding depth is limited at run time.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "record.hpp"
#include "status.hpp"
#include "wire.hpp"

namespace hppproto {

enum class FieldType : uint8_t {
  double_ = 1, float_ = 2, int64 = 3, uint64 = 4, int32 = 5, fixed64 = 6, fixed32 = 7, bool_ = 8,
  string = 9, group = 10, message = 11, bytes = 12, uint32 = 13, enum_ = 14, sfixed32 = 15,
  sfixed64 = 16, sint32 = 17, sint64 = 18,
};

enum class Label : uint8_t { implicit = 0, explicit_ = 1, oneof = 2, repeated = 3, map = 4 };

namespace field_flags {
constexpr uint16_t packed = 1;         // encode packed (decoding accepts both forms regardless)
constexpr uint16_t validate_utf8 = 2;  // strings must hold valid UTF-8
constexpr uint16_t required = 4;       // proto2 required: decoding fails when absent
constexpr uint16_t closed_enum = 8;    // values outside the enum (aux) go to unknown fields
constexpr uint16_t all = 15;
}  // namespace field_flags

namespace message_flags {
// proto2 message_set_wire_format: every field is an extension written as an item group
// (group 1 { type_id = 2: the field number, message = 3: the bytes })
constexpr uint32_t message_set = 1;
constexpr uint32_t all = 1;
}  // namespace message_flags

constexpr uint32_t table_magic = 0x54505048;  // "HPPT"
constexpr uint32_t table_version = 2;
constexpr uint32_t no_aux = 0xffffffffu;
constexpr uint32_t max_record_size = 1u << 20;

constexpr bool is_numeric(FieldType t) noexcept {
  return t != FieldType::string && t != FieldType::bytes && t != FieldType::message &&
         t != FieldType::group;
}

// Wire type a value of this type is written with when not packed.
constexpr WireType natural_wire_type(FieldType t) noexcept {
  switch (t) {
    case FieldType::double_: case FieldType::fixed64: case FieldType::sfixed64:
      return WireType::fixed64;
    case FieldType::float_: case FieldType::fixed32: case FieldType::sfixed32:
      return WireType::fixed32;
    case FieldType::string: case FieldType::bytes: case FieldType::message:
      return WireType::len;
    case FieldType::group:
      return WireType::sgroup;
    default:
      return WireType::varint;
  }
}

// Size of one value of the type in a record slot or array element.
constexpr uint32_t value_size(FieldType t) noexcept {
  switch (t) {
    case FieldType::double_: case FieldType::int64: case FieldType::uint64: case FieldType::fixed64:
    case FieldType::sfixed64: case FieldType::sint64:
      return 8;
    case FieldType::bool_:
      return 1;
    case FieldType::string: case FieldType::bytes:
      return sizeof(BytesSlot);
    case FieldType::message: case FieldType::group:
      return sizeof(RecordPtr);
    default:
      return 4;
  }
}

constexpr uint32_t value_alignment(FieldType t) noexcept {
  switch (t) {
    case FieldType::string: case FieldType::bytes:
      return alignof(BytesSlot);
    case FieldType::message: case FieldType::group:
      return alignof(RecordPtr);
    default:
      return value_size(t);
  }
}

// How a value of the field is read and stored, derived from type and flags at load time so the
// decode loop dispatches once.
enum class ValueOp : uint8_t {
  varint32, varint64, zigzag32, zigzag64, boolean, closed_enum, fixed32, fixed64,
  utf8_string, bytes, message, group,
};

struct FieldDef {
  uint32_t number;
  FieldType type;
  Label label;
  uint16_t flags;
  uint32_t offset;
  uint32_t presence;
  uint32_t aux;
  WireType wire_type;  // natural_wire_type(type), cached for the decode loop
  ValueOp op = ValueOp::varint32;
  uint8_t hasbit_mask = 0;  // explicit presence: rec[hasbit_byte] |= hasbit_mask; 0 otherwise
  uint32_t hasbit_byte = 0;

  bool is_array() const noexcept { return label == Label::repeated || label == Label::map; }
  uint32_t slot_size() const noexcept { return is_array() ? sizeof(ArraySlot) : value_size(type); }
  uint32_t slot_alignment() const noexcept {
    return is_array() ? alignof(ArraySlot) : value_alignment(type);
  }
};

// How the decode loop handles a field whose tag arrives with the field's own wire type: the common
// singular and repeated-message shapes directly, everything else (oneofs, closed enums, other
// repeated fields, maps, groups) through the general path.
enum class FastOp : uint8_t { general, varint, fixed32, fixed64, length, message, repeated_message };

// One entry of a message's lookup by field number: everything the decode loop needs for the field
// in one 24-byte record, so that a field costs one table load after its tag. Built from the
// field's FieldDef by the loader.
struct NumberEntry {
  uint32_t tag = 0;  // the field's number and natural wire type; 0 when no field has the number
  FastOp op = FastOp::general;
  ValueOp value = ValueOp::varint32;  // how a varint is stored, whether a string is UTF-8 checked
  uint8_t hasbit_mask = 0;            // explicit presence: rec[hasbit_byte] |= hasbit_mask; 0 otherwise
  uint8_t reserved = 0;
  uint32_t offset = 0;
  uint32_t hasbit_byte = 0;
  uint32_t aux = 0;
  uint32_t field = 0;  // 1 + the field's index in its message, 0 when no field has the number
};

struct MessageDef {
  uint32_t record_size = 0;
  uint32_t first_field = 0;  // index into Schema::fields_
  uint32_t field_count = 0;
  uint32_t dense_first = 0;  // index into Schema::dense_ (NumberEntry), for field numbers < dense_size
  const NumberEntry* dense = nullptr;  // &Schema::dense_[dense_first], set once the table is complete
  uint32_t dense_size = 0;
  uint32_t first_required = 0;  // index into Schema::required_
  uint32_t required_count = 0;
  bool message_set = false;
};

struct EnumDef {
  uint32_t first_value = 0;  // index into Schema::enum_values_
  uint32_t value_count = 0;
};

// Little-endian u32 words of a table, bounds-checked.
struct WordReader {
  const uint8_t* data;
  size_t size;
  size_t pos = 0;
  bool word(uint32_t& out) noexcept {
    if (size - pos < 4) return false;
    out = load_fixed32(data + pos);
    pos += 4;
    return true;
  }
  size_t remaining_words() const noexcept { return (size - pos) / 4; }
  uint32_t offset() const noexcept { return static_cast<uint32_t>(pos); }
};

class Schema {
 public:
  Schema() = default;
  // MessageDef::dense points into dense_: a copy would point into the original's table. A move
  // keeps the vectors' storage, and with it those pointers.
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;
  Schema(Schema&&) = default;
  Schema& operator=(Schema&&) = default;

  // Parses and validates a table. On failure returns false with status set (offset = byte offset
  // in the table, detail = message index where one applies).
  bool load(const uint8_t* table, size_t size, Status& status) {
    WordReader r{table, size};
    status.clear();
    uint32_t magic, version, enum_count, message_count;
    if (!r.word(magic) || !r.word(version) || !r.word(enum_count) || !r.word(message_count))
      return status.fail(Error::invalid_schema, r.offset());
    if (magic != table_magic || version != table_version)
      return status.fail(Error::invalid_schema, 0);
    if (enum_count > r.remaining_words() || message_count > r.remaining_words() / 3)
      return status.fail(Error::invalid_schema, r.offset());

    enums_.resize(enum_count);
    for (EnumDef& e : enums_) {
      if (!r.word(e.value_count) || e.value_count > r.remaining_words())
        return status.fail(Error::invalid_schema, r.offset());
      e.first_value = static_cast<uint32_t>(enum_values_.size());
      for (uint32_t i = 0; i < e.value_count; ++i) {
        uint32_t w;
        r.word(w);
        const auto v = static_cast<int32_t>(w);
        if (i > 0 && v <= enum_values_.back()) return status.fail(Error::invalid_schema, r.offset() - 4);
        enum_values_.push_back(v);
      }
    }

    messages_.resize(message_count);
    for (uint32_t mi = 0; mi < message_count; ++mi) {
      MessageDef& m = messages_[mi];
      uint32_t flags;
      if (!r.word(m.record_size) || !r.word(flags) || !r.word(m.field_count) ||
          m.field_count > r.remaining_words() / 5)
        return status.fail(Error::invalid_schema, r.offset(), mi);
      if ((flags & ~message_flags::all) != 0) return status.fail(Error::invalid_schema, r.offset() - 8, mi);
      m.message_set = (flags & message_flags::message_set) != 0;
      m.first_field = static_cast<uint32_t>(fields_.size());
      for (uint32_t i = 0; i < m.field_count; ++i) {
        uint32_t number, packed_type, offset, presence, aux;
        r.word(number);
        r.word(packed_type);
        r.word(offset);
        r.word(presence);
        r.word(aux);
        FieldDef f{number,
                   static_cast<FieldType>(packed_type & 0xff),
                   static_cast<Label>((packed_type >> 8) & 0xff),
                   static_cast<uint16_t>(packed_type >> 16),
                   offset,
                   presence,
                   aux,
                   WireType::varint};
        f.wire_type = natural_wire_type(f.type);
        fields_.push_back(f);
      }
    }
    if (r.remaining_words() != 0 || r.offset() != size) return status.fail(Error::invalid_schema, r.offset());

    for (uint32_t mi = 0; mi < message_count; ++mi) {
      if (!validate_message(mi)) return status.fail(Error::invalid_schema, 0, mi);
    }
    for (FieldDef& f : fields_) set_value_op(f);
    build_lookup();
    return true;
  }

  uint32_t message_count() const noexcept { return static_cast<uint32_t>(messages_.size()); }
  const MessageDef& message(uint32_t i) const noexcept { return messages_[i]; }
  const FieldDef* fields(const MessageDef& m) const noexcept { return fields_.data() + m.first_field; }
  const uint32_t* required_hasbits(const MessageDef& m) const noexcept {
    return required_.data() + m.first_required;
  }


  const FieldDef* find(const MessageDef& m, uint32_t number) const noexcept {
    if (number < m.dense_size) {
      const uint32_t i = dense_[m.dense_first + number].field;
      return i ? &fields_[m.first_field + i - 1] : nullptr;
    }
    const FieldDef* lo = fields(m);
    const FieldDef* hi = lo + m.field_count;
    while (lo < hi) {
      const FieldDef* mid = lo + (hi - lo) / 2;
      if (mid->number < number) lo = mid + 1;
      else hi = mid;
    }
    return (lo != fields(m) + m.field_count && lo->number == number) ? lo : nullptr;
  }

  bool enum_contains(uint32_t enum_index, int32_t value) const noexcept {
    const EnumDef& e = enums_[enum_index];
    const int32_t* lo = enum_values_.data() + e.first_value;
    const int32_t* hi = lo + e.value_count;
    while (lo < hi) {
      const int32_t* mid = lo + (hi - lo) / 2;
      if (*mid < value) lo = mid + 1;
      else hi = mid;
    }
    return lo != enum_values_.data() + e.first_value + e.value_count && *lo == value;
  }

 private:
  static bool is_map_key_type(FieldType t) noexcept {
    if (t == FieldType::string) return true;
    return is_numeric(t) && t != FieldType::double_ && t != FieldType::float_ && t != FieldType::enum_;
  }

  bool validate_message(uint32_t mi) {
    MessageDef& m = messages_[mi];
    if (m.record_size < record_header_size || m.record_size > max_record_size ||
        m.record_size % 8 != 0)
      return false;
    // Who owns each byte of the record: 0 free, 1 the header, 2 hasbits, else an owner id.
    std::vector<uint32_t> owner(m.record_size, 0);
    for (uint32_t b = 0; b < record_header_size; ++b) owner[b] = 1;
    auto claim = [&](uint32_t offset, uint32_t size, uint32_t id) {
      if (offset > m.record_size || size > m.record_size - offset) return false;
      for (uint32_t b = offset; b < offset + size; ++b) {
        if (owner[b] != 0 && owner[b] != id) return false;
        owner[b] = id;
      }
      return true;
    };
    m.first_required = static_cast<uint32_t>(required_.size());
    const FieldDef* fs = fields(m);
    for (uint32_t i = 0; i < m.field_count; ++i) {
      const FieldDef& f = fs[i];
      if (f.number == 0 || f.number > max_field_number) return false;
      if (i > 0 && f.number <= fs[i - 1].number) return false;
      const auto type = static_cast<uint32_t>(f.type);
      if (type < 1 || type > 18 || static_cast<uint32_t>(f.label) > 4) return false;
      if ((f.flags & ~field_flags::all) != 0) return false;
      const bool sub_message = f.type == FieldType::message || f.type == FieldType::group;
      if (sub_message) {
        if (f.aux >= messages_.size()) return false;
      } else if (f.flags & field_flags::closed_enum) {
        if (f.type != FieldType::enum_ || f.aux >= enums_.size()) return false;
      } else if (f.aux != no_aux) {
        return false;
      }
      if (f.offset % f.slot_alignment() != 0) return false;
      switch (f.label) {
        case Label::implicit:
        case Label::repeated:
          if (!claim(f.offset, f.slot_size(), 3 + i)) return false;
          break;
        case Label::explicit_: {
          const uint32_t byte = f.presence >> 3;
          if (byte >= m.record_size || (owner[byte] != 0 && owner[byte] != 2)) return false;
          owner[byte] = 2;
          if (!claim(f.offset, f.slot_size(), 3 + i)) return false;
          if (f.flags & field_flags::required) required_.push_back(f.presence);
          break;
        }
        case Label::oneof: {
          // members of one oneof share the case slot and the value slot at the same offset
          const uint32_t case_id = 0x40000000u | f.presence;
          const uint32_t value_id = 0x80000000u | f.presence;
          if (f.presence % 4 != 0 || !claim(f.presence, 4, case_id)) return false;
          for (uint32_t j = 0; j < i; ++j) {
            if (fs[j].label == Label::oneof && fs[j].presence == f.presence && fs[j].offset != f.offset)
              return false;
          }
          if (!claim(f.offset, f.slot_size(), value_id)) return false;
          break;
        }
        case Label::map: {
          if (f.type != FieldType::message || f.aux >= messages_.size()) return false;
          const MessageDef& entry = messages_[f.aux];
          if (entry.field_count != 2) return false;
          const FieldDef* ef = fields(entry);
          if (ef[0].number != 1 || ef[1].number != 2 || ef[0].is_array() || ef[1].is_array() ||
              !is_map_key_type(ef[0].type) || ef[1].type == FieldType::group)
            return false;
          if (!claim(f.offset, f.slot_size(), 3 + i)) return false;
          break;
        }
      }
      if ((f.flags & field_flags::required) && f.label != Label::explicit_) return false;
      // a message set holds only singular message extensions, numbered past the item's fields
      if (m.message_set && (f.type != FieldType::message || f.label != Label::explicit_ || f.number < 4))
        return false;
    }
    m.required_count = static_cast<uint32_t>(required_.size()) - m.first_required;
    return true;
  }

  static void set_value_op(FieldDef& f) noexcept {
    if (f.label == Label::explicit_) {
      f.hasbit_byte = f.presence >> 3;
      f.hasbit_mask = static_cast<uint8_t>(1u << (f.presence & 7));
    }
    switch (f.type) {
      case FieldType::int32: case FieldType::uint32: f.op = ValueOp::varint32; break;
      case FieldType::enum_: f.op = (f.flags & field_flags::closed_enum) ? ValueOp::closed_enum : ValueOp::varint32; break;
      case FieldType::int64: case FieldType::uint64: f.op = ValueOp::varint64; break;
      case FieldType::sint32: f.op = ValueOp::zigzag32; break;
      case FieldType::sint64: f.op = ValueOp::zigzag64; break;
      case FieldType::bool_: f.op = ValueOp::boolean; break;
      case FieldType::fixed32: case FieldType::sfixed32: case FieldType::float_: f.op = ValueOp::fixed32; break;
      case FieldType::fixed64: case FieldType::sfixed64: case FieldType::double_: f.op = ValueOp::fixed64; break;
      case FieldType::string: f.op = (f.flags & field_flags::validate_utf8) ? ValueOp::utf8_string : ValueOp::bytes; break;
      case FieldType::bytes: f.op = ValueOp::bytes; break;
      case FieldType::message: f.op = ValueOp::message; break;
      case FieldType::group: f.op = ValueOp::group; break;
    }
  }

  // Field numbers below a bound get a direct index; sparse high numbers use binary search.
  void build_lookup() {
    for (MessageDef& m : messages_) {
      if (m.field_count == 0) continue;
      const uint32_t highest = fields(m)[m.field_count - 1].number;
      const uint32_t bound = 2 * m.field_count + 64;
      m.dense_size = (highest < bound ? highest : bound) + 1;
      m.dense_first = static_cast<uint32_t>(dense_.size());
      dense_.resize(dense_.size() + m.dense_size);
      const FieldDef* fs = fields(m);
      for (uint32_t i = 0; i < m.field_count; ++i) {
        const FieldDef& f = fs[i];
        if (f.number >= m.dense_size) continue;
        NumberEntry& e = dense_[m.dense_first + f.number];
        e.tag = make_tag(f.number, f.wire_type);
        e.op = fast_op(f);
        e.value = f.op;
        e.hasbit_mask = f.hasbit_mask;
        e.offset = f.offset;
        e.hasbit_byte = f.hasbit_byte;
        e.aux = f.aux;
        e.field = i + 1;
      }
    }
    for (MessageDef& m : messages_) m.dense = dense_.data() + m.dense_first;  // dense_ no longer moves
  }

  static FastOp fast_op(const FieldDef& f) noexcept {
    if (f.label == Label::repeated) return f.op == ValueOp::message ? FastOp::repeated_message : FastOp::general;
    if (f.label == Label::oneof || f.label == Label::map) return FastOp::general;
    switch (f.op) {
      case ValueOp::closed_enum: case ValueOp::group: return FastOp::general;
      case ValueOp::fixed32: return FastOp::fixed32;
      case ValueOp::fixed64: return FastOp::fixed64;
      case ValueOp::utf8_string: case ValueOp::bytes: return FastOp::length;
      case ValueOp::message: return FastOp::message;
      default: return FastOp::varint;
    }
  }

  std::vector<MessageDef> messages_;
  std::vector<FieldDef> fields_;
  std::vector<EnumDef> enums_;
  std::vector<int32_t> enum_values_;
  std::vector<NumberEntry> dense_;
  std::vector<uint32_t> required_;
};

}  // namespace hppproto
