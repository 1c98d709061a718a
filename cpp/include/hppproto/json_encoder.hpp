// Records to ProtoJSON text (UTF-8), in one pass into one growable buffer: keys by json name (or
// .proto name), 64-bit integers as quoted decimals, enum names (numbers the enum does not declare
// as numbers), base64 bytes, maps by key, fields in number order, defaults left out unless asked.
//
// Two things are left to the JS runtime. Doubles and floats that are not small integers are written
// as one marker byte (number_marker / float_marker) and their values listed in numbers(): JS prints
// them (the shortest text that reads back, which Number#toString gives and which would otherwise
// take a Ryu-sized table here). And messages with a JSON form of their own (well-known types), one
// name for two fields, duplicate map keys (decoded wire data may repeat a key) and objects and
// arrays nested deeper than Limits::json_max_depth (which no reader here reads) make encode() return
// false: the JS writer writes those messages, or names what is wrong.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "encoder.hpp"
#include "json_names.hpp"
#include "map_keys.hpp"
#include "record.hpp"
#include "schema.hpp"

namespace hppproto {

namespace json_write_flags {
constexpr uint32_t proto_names = 1;    // keys by .proto name instead of json name
constexpr uint32_t enums_as_ints = 2;  // enum values as numbers
constexpr uint32_t emit_defaults = 4;  // implicit-presence fields, repeated fields and maps even when empty
}  // namespace json_write_flags

// Bytes that never occur raw in ProtoJSON text (control characters are escaped in strings): where
// the next of numbers() goes, printed as a double or as a float.
constexpr uint8_t number_marker = 1;
constexpr uint8_t float_marker = 2;

// ProtoJSON text into one growable buffer: o_ is where the next byte goes, end_ the end of what is
// reserved. Every write makes room first, and fails when memory cannot grow or the text would
// outgrow the size limit.
class JsonText {
 public:
  JsonText(const Limits& limits, ScratchBuffer<uint8_t>& out) noexcept
      : limits_(limits), out_(out), o_(out.data()), end_(out.data() + out.capacity()) {}

  size_t used() const noexcept { return static_cast<size_t>(o_ - out_.data()); }

  // A JSON string, escaped as JSON.stringify escapes (quote, backslash, control characters); the
  // rest of the UTF-8 is copied as it is, eight bytes at a time while none needs escaping.
  bool string(const uint8_t* s, size_t n) noexcept {
    if (!room(n + 2)) return false;  // grows again only for escapes
    *o_++ = '"';
    size_t run = 0;  // start of the bytes not copied yet
    for (size_t i = 0; i < n;) {
      if (n - i >= 8) {
        uint64_t w;
        std::memcpy(&w, s + i, 8);
        if (!json_special_bytes(w)) {
          i += 8;
          continue;
        }
      }
      const uint8_t c = s[i++];
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      // the run before it, then its escape, and room again for the rest
      copy(s + run, i - 1 - run);
      if (!room(6 + (n - i) + 1)) return false;
      o_ += json_escaped(c, o_);
      run = i;
    }
    copy(s + run, n - run);
    *o_++ = '"';
    return true;
  }

 protected:
  // Room for n more bytes at o_; false when memory cannot grow or the text outgrows the size limit.
  [[gnu::always_inline]] bool room(size_t n) noexcept { return static_cast<size_t>(end_ - o_) >= n || grow(n); }
  bool grow(size_t n) noexcept {
    const size_t at = used();
    if (n > limits_.max_message_size || at > limits_.max_message_size - n || !out_.reserve(at + n)) return false;
    o_ = out_.data() + at;
    end_ = out_.data() + out_.capacity();
    return true;
  }
  bool put(uint8_t c) noexcept {
    if (!room(1)) return false;
    *o_++ = c;
    return true;
  }
  bool put(const uint8_t* s, size_t n) noexcept {
    if (!room(n)) return false;
    copy(s, n);
    return true;
  }
  bool put(const char* s, size_t n) noexcept { return put(reinterpret_cast<const uint8_t*>(s), n); }
  // short copies (keys, names) by loop: a call to memcpy costs more than they do
  [[gnu::always_inline]] void copy(const uint8_t* s, size_t n) noexcept {
    if (n > 32) {
      std::memcpy(o_, s, n);
    } else {
      for (size_t i = 0; i < n; ++i) o_[i] = s[i];
    }
    o_ += n;
  }

  // Decimal digits; `quoted` for 64-bit integers, which ProtoJSON writes as strings.
  bool integer(bool negative, uint64_t magnitude, bool quoted) noexcept {
    if (!room(23)) return false;
    uint8_t digits[20];
    size_t n = 0;
    // 64-bit division is a real division on wasm32; below 2^32 it is a multiplication
    for (; magnitude > 0xffffffffu; magnitude /= 10) digits[sizeof digits - 1 - n++] = static_cast<uint8_t>('0' + magnitude % 10);
    uint32_t low = static_cast<uint32_t>(magnitude);
    do {
      digits[sizeof digits - 1 - n++] = static_cast<uint8_t>('0' + low % 10);
      low /= 10;
    } while (low != 0);
    if (quoted) *o_++ = '"';
    if (negative) *o_++ = '-';
    copy(digits + sizeof digits - n, n);
    if (quoted) *o_++ = '"';
    return true;
  }
  bool signed_integer(int64_t v, bool quoted) noexcept {
    return integer(v < 0, v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v), quoted);
  }

  bool base64(const uint8_t* s, size_t n) noexcept {
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (n > SIZE_MAX / 2 || !room((n + 2) / 3 * 4 + 2)) return false;
    uint8_t* o = o_;
    *o++ = '"';
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
      const uint32_t w = uint32_t{s[i]} << 16 | uint32_t{s[i + 1]} << 8 | s[i + 2];
      o[0] = alphabet[w >> 18], o[1] = alphabet[w >> 12 & 63], o[2] = alphabet[w >> 6 & 63], o[3] = alphabet[w & 63];
      o += 4;
    }
    if (i < n) {
      const uint32_t w = uint32_t{s[i]} << 16 | (i + 1 < n ? uint32_t{s[i + 1]} << 8 : 0);
      o[0] = alphabet[w >> 18], o[1] = alphabet[w >> 12 & 63];
      o[2] = i + 1 < n ? alphabet[w >> 6 & 63] : '=';
      o[3] = '=';
      o += 4;
    }
    *o++ = '"';
    o_ = o;
    return true;
  }

  const Limits& limits_;
  ScratchBuffer<uint8_t>& out_;
  uint8_t* o_;
  uint8_t* end_;
};

// The records' ProtoJSON text: a JsonText written message by message from the schema and names.
class JsonEncoder : JsonText {
 public:
  JsonEncoder(const Schema& schema, const JsonNames& names, const Limits& limits, uint32_t flags,
              ScratchBuffer<uint8_t>& out, std::vector<double>& numbers, std::vector<uint32_t>& scratch) noexcept
      : JsonText(limits, out), schema_(schema), names_(names), flags_(flags), numbers_(numbers), scratch_(scratch) {}

  // The text of the message at rec into out (size bytes), or false when the JS writer writes it.
  bool encode(uint32_t mi, const uint8_t* rec, size_t& size) noexcept {
    numbers_.clear();
    if (!message(mi, rec, 0)) return false;
    size = used();
    return true;
  }

 private:
  // Integers below 2^53 (2^24 for floats) print as their digits, as JS prints them; NaN and the
  // infinities are strings; everything else is JS's to print.
  bool floating(double v, bool is_float) noexcept {
    if (std::isnan(v)) return put("\"NaN\"", 5);
    if (std::isinf(v)) return v > 0 ? put("\"Infinity\"", 10) : put("\"-Infinity\"", 11);
    const double exact = is_float ? 16777216.0 : 9007199254740992.0;
    if (v == std::trunc(v) && std::fabs(v) < exact) {
      if (v == 0) return std::signbit(v) ? put("-0", 2) : put('0');
      return integer(v < 0, static_cast<uint64_t>(std::fabs(v)), false);
    }
    numbers_.push_back(v);
    return put(is_float ? float_marker : number_marker);
  }

  // An enum value by its first declared name; a number the enum does not declare stays a number.
  bool enum_value(uint32_t ei, int32_t number) noexcept {
    if (names_.enum_own_form(ei)) return put("null", 4);  // google.protobuf.NullValue
    if (!(flags_ & json_write_flags::enums_as_ints)) {
      const Name* name = names_.enum_name(ei, number);
      if (name) return string(name->data, name->size);
    }
    return signed_integer(number, false);
  }

  // `enclosing`: the objects and arrays open around the value.
  bool value(uint32_t mi, uint32_t fi, const FieldDef& f, const uint8_t* v, uint32_t enclosing) noexcept {
    switch (f.type) {
      case FieldType::double_: return floating(load<double>(v), false);
      case FieldType::float_: return floating(load<float>(v), true);
      case FieldType::int64: case FieldType::sfixed64: case FieldType::sint64: return signed_integer(load<int64_t>(v), true);
      case FieldType::uint64: case FieldType::fixed64: return integer(false, load<uint64_t>(v), true);
      case FieldType::uint32: case FieldType::fixed32: return integer(false, load<uint32_t>(v), false);
      case FieldType::bool_: return *v ? put("true", 4) : put("false", 5);
      case FieldType::string: {
        const auto s = load<BytesSlot>(v);
        return string(s.data, s.size);
      }
      case FieldType::bytes: {
        const auto s = load<BytesSlot>(v);
        return base64(s.data, s.size);
      }
      case FieldType::enum_: return enum_value(names_.enum_of(mi, fi), load<int32_t>(v));
      case FieldType::message: case FieldType::group: return message(f.aux, load<RecordPtr>(v), enclosing);
      default: return signed_integer(load<int32_t>(v), false);  // int32, sint32, sfixed32
    }
  }

  // Whether a field is written: set (explicit presence), non-default or non-empty (unless defaults
  // are asked for). An empty repeated extension is unset: left out, as protobuf leaves unset extensions out.
  bool written(const FieldDef& f, bool extension, const uint8_t* rec) const noexcept {
    const uint8_t* v = rec + f.offset;
    switch (f.label) {
      case Label::explicit_:
        if (f.type == FieldType::message || f.type == FieldType::group) return load<RecordPtr>(v) != nullptr;
        return (rec[f.hasbit_byte] & f.hasbit_mask) != 0;
      case Label::oneof: return load<uint32_t>(rec + f.presence) == f.number;
      case Label::implicit:
        if (f.type == FieldType::message || f.type == FieldType::group) return load<RecordPtr>(v) != nullptr;  // (map values)
        if (flags_ & json_write_flags::emit_defaults) return true;
        switch (f.type) {
          case FieldType::string: case FieldType::bytes: return load<BytesSlot>(v).size != 0;
          default:
            switch (value_size(f.type)) {
              case 8: return load<uint64_t>(v) != 0;  // by bits: -0.0 is written
              case 4: return load<uint32_t>(v) != 0;
              default: return *v != 0;
            }
        }
      default: return ((flags_ & json_write_flags::emit_defaults) && !extension) || load<ArraySlot>(v).size != 0;
    }
  }

  bool message(uint32_t mi, const uint8_t* rec, uint32_t enclosing) noexcept {
    const uint32_t level = enclosing + 1;  // of its object
    if (level > Limits::json_max_depth || !names_.readable(mi)) return false;
    if (!put('{')) return false;
    if (!rec) return put('}');  // a oneof member or map value never filled in: empty
    const MessageDef& m = schema_.message(mi);
    const FieldDef* fields = schema_.fields(m);
    const JsonNames::FieldNames* names = names_.fields(mi);
    bool first = true;
    for (uint32_t i = 0; i < m.field_count; ++i) {
      const FieldDef& f = fields[i];
      if (!written(f, names[i].extension, rec)) continue;
      const Name& key = (flags_ & json_write_flags::proto_names) ? names[i].proto_key : names[i].json_key;
      if (!room(key.size + 1 + 8)) return false;
      if (!first) *o_++ = ',';
      // eight bytes at a time: the pool of keys is padded, and there is room past the key
      for (uint32_t k = 0; k < key.size; k += 8) std::memcpy(o_ + k, key.data + k, 8);
      o_ += key.size;
      first = false;
      const uint8_t* v = rec + f.offset;
      if (f.label == Label::map) {
        if (!map(f, load<ArraySlot>(v), level)) return false;
      } else if (f.label == Label::repeated) {
        if (!list(mi, i, f, load<ArraySlot>(v), level)) return false;
      } else if (!value(mi, i, f, v, level)) {
        return false;
      }
    }
    return put('}');
  }

  bool list(uint32_t mi, uint32_t fi, const FieldDef& f, const ArraySlot& a, uint32_t enclosing) noexcept {
    if (enclosing + 1 > Limits::json_max_depth || !put('[')) return false;
    const auto* data = static_cast<const uint8_t*>(a.data);
    const size_t stride = f.type == FieldType::message || f.type == FieldType::group ? sizeof(RecordPtr) : value_size(f.type);
    for (uint32_t k = 0; k < a.size; ++k) {
      if ((k != 0 && !put(',')) || !value(mi, fi, f, data + k * stride, enclosing + 1)) return false;
    }
    return put(']');
  }

  // Entries in record order; a key the wire data gave twice is the JS writer's (whose object keeps one).
  bool map(const FieldDef& f, const ArraySlot& a, uint32_t enclosing) noexcept {
    const MessageDef& entry = schema_.message(f.aux);
    const FieldDef* kv = schema_.fields(entry);
    if (entry.field_count != 2 || !names_.readable(f.aux)) return false;
    const FieldDef& key = kv[0];
    const FieldDef& val = kv[1];
    const auto* recs = static_cast<const RecordPtr*>(a.data);
    if (enclosing + 1 > Limits::json_max_depth || !distinct_map_keys(key, recs, a.size, scratch_) || !put('{')) return false;
    static constexpr uint8_t zero[sizeof(uint64_t) + sizeof(BytesSlot)] = {};
    for (uint32_t k = 0; k < a.size; ++k) {
      const uint8_t* e = recs[k];
      const uint8_t* kp = e ? e + key.offset : zero;  // an entry missing altogether has zero key and value
      if (k != 0 && !put(',')) return false;
      bool ok;  // keys are strings in JSON
      switch (key.type) {
        case FieldType::string: {
          const auto s = load<BytesSlot>(kp);
          ok = string(s.data, s.size);
          break;
        }
        case FieldType::bool_: ok = *kp ? put("\"true\"", 6) : put("\"false\"", 7); break;
        case FieldType::int64: case FieldType::sfixed64: case FieldType::sint64: ok = signed_integer(load<int64_t>(kp), true); break;
        case FieldType::uint64: case FieldType::fixed64: ok = integer(false, load<uint64_t>(kp), true); break;
        case FieldType::uint32: case FieldType::fixed32: ok = integer(false, load<uint32_t>(kp), true); break;
        default: ok = signed_integer(load<int32_t>(kp), true);
      }
      if (!ok || !put(':')) return false;
      if (!value(f.aux, 1, val, e ? e + val.offset : zero, enclosing + 1)) return false;
    }
    return put('}');
  }

  const Schema& schema_;
  const JsonNames& names_;
  const uint32_t flags_;
  std::vector<double>& numbers_;
  std::vector<uint32_t>& scratch_;
};

}  // namespace hppproto
