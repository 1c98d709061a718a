// The table-driven encoder: records (decoded, or written by builders) back to wire bytes.
//
// Two passes over the record tree. measure() computes the size and checks what can fail (required
// fields, depth, the 2 GiB limit), recording the size of every nested message and packed varint
// run in visiting order; write() then emits bytes into a buffer of exactly that size, reading the
// recorded sizes back in the same order, and cannot fail. Output is canonical: known fields by
// ascending number, then unknown fields in the order they were read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "decoder.hpp"
#include "record.hpp"
#include "schema.hpp"
#include "status.hpp"
#include "wire.hpp"

namespace hppproto {

// The per-field helpers of the two passes: inlined into the field loops (measured: not inlining
// them made encoding 2x slower).
#define HPPPROTO_INLINE __attribute__((always_inline)) inline

// A growable malloc'd array reused across calls: the encoder's size cache and output buffer.
template <class T>
class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  ~ScratchBuffer() { std::free(data_); }

  // Room for n elements; false when memory cannot grow. Very large buffers are given back once a
  // much smaller request shows they are no longer needed.
  bool reserve(size_t n) noexcept {
    if (n <= capacity_ && !(capacity_ > shrink_above && n < capacity_ / 4)) return true;
    size_t cap = n < 64 ? 64 : n;
    if (n > capacity_) cap = n + n / 2 > cap ? n + n / 2 : cap;
    if (cap > SIZE_MAX / sizeof(T)) return false;
    void* fresh = std::realloc(data_, cap * sizeof(T));
    if (!fresh) return n <= capacity_;
    data_ = static_cast<T*>(fresh);
    capacity_ = cap;
    return true;
  }
  T* data() noexcept { return data_; }
  size_t capacity() const noexcept { return capacity_; }

 private:
  static constexpr size_t shrink_above = (size_t{4} << 20) / sizeof(T);
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

class Encoder {
 public:
  Encoder(const Schema& schema, Status& status, const Limits& limits, ScratchBuffer<uint32_t>& sizes) noexcept
      : schema_(schema), status_(status), limits_(limits), sizes_(sizes) {}

  // Size of the message at rec, or false with the status set.
  bool measure(uint32_t mi, const uint8_t* rec, size_t& size) noexcept {
    status_.clear();
    sizes_used_ = 0;
    uint64_t n;
    if (!measure_message(mi, rec, 0, n)) return finish_failure();
    if (n > limits_.max_message_size) {
      status_.fail(Error::message_too_large, 0, limits_.max_message_size);
      return finish_failure();
    }
    size = static_cast<size_t>(n);
    return true;
  }

  // Writes the message measure() was last called for; returns the end of the bytes written.
  uint8_t* write(uint32_t mi, const uint8_t* rec, uint8_t* out) noexcept {
    sizes_read_ = 0;
    return write_message(mi, rec, out);
  }

  // A run of messages each preceded by its length: measure() and write() over `count` records.
  bool measure_delimited(uint32_t mi, const RecordPtr* recs, uint32_t count, size_t& size) noexcept {
    status_.clear();
    sizes_used_ = 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t at = sizes_used_;
      if (!reserve_size()) return finish_failure();
      uint64_t n;
      if (!measure_message(mi, recs[i], 0, n) || !check_size(n)) {
        status_.push_frame(mi, 0, static_cast<int32_t>(i));
        return finish_failure();
      }
      sizes_.data()[at] = static_cast<uint32_t>(n);
      total += varint_size(n) + n;
      if (total > limits_.max_message_size) {
        status_.fail(Error::message_too_large, 0, limits_.max_message_size);
        return finish_failure();
      }
    }
    size = static_cast<size_t>(total);
    return true;
  }

  uint8_t* write_delimited(uint32_t mi, const RecordPtr* recs, uint32_t count, uint8_t* out) noexcept {
    sizes_read_ = 0;
    for (uint32_t i = 0; i < count; ++i) {
      out = write_varint(out, next_size());
      out = write_message(mi, recs[i], out);
    }
    return out;
  }

 private:
  bool finish_failure() noexcept {
    status_.finish();
    return false;
  }

  bool check_size(uint64_t n) noexcept {
    if (n <= limits_.max_message_size) return true;
    return status_.fail(Error::message_too_large, 0, limits_.max_message_size);
  }

  bool reserve_size() noexcept {
    if (!sizes_.reserve(size_t{sizes_used_} + 1)) return status_.fail(Error::out_of_memory, 0);
    ++sizes_used_;
    return true;
  }
  uint32_t next_size() noexcept { return sizes_.data()[sizes_read_++]; }


  // Bytes between elements of a repeated field in its array.
  static uint32_t element_stride(FieldType t) noexcept {
    if (t == FieldType::message || t == FieldType::group) return sizeof(RecordPtr);
    return value_size(t);  // strings and bytes: sizeof(BytesSlot)
  }

  static size_t tag_size(uint32_t number) noexcept { return varint_size(uint64_t{number} << 3); }

  // The varint a value of a varint-typed field is written as: per element form T, and for a form
  // known only at run time.
  template <FieldType T>
  HPPPROTO_INLINE static uint64_t varint_of(const uint8_t* v) noexcept {
    if constexpr (T == FieldType::int32 || T == FieldType::enum_)
      return static_cast<uint64_t>(static_cast<int64_t>(load<int32_t>(v)));  // negative: 10 bytes
    else if constexpr (T == FieldType::uint32) return load<uint32_t>(v);
    else if constexpr (T == FieldType::sint32) return zigzag_encode32(load<int32_t>(v));
    else if constexpr (T == FieldType::sint64) return zigzag_encode64(load<int64_t>(v));
    else if constexpr (T == FieldType::bool_) return *v != 0;
    else return load<uint64_t>(v);  // int64, uint64
  }
  HPPPROTO_INLINE static uint64_t varint_of(FieldType t, const uint8_t* v) noexcept {
    switch (t) {
      case FieldType::int32: case FieldType::enum_: return varint_of<FieldType::int32>(v);
      case FieldType::uint32: return varint_of<FieldType::uint32>(v);
      case FieldType::sint32: return varint_of<FieldType::sint32>(v);
      case FieldType::sint64: return varint_of<FieldType::sint64>(v);
      case FieldType::bool_: return varint_of<FieldType::bool_>(v);
      default: return varint_of<FieldType::uint64>(v);
    }
  }

  // Whether an implicit-presence value differs from its zero (by bits: -0.0 is written).
  HPPPROTO_INLINE static bool is_nonzero(const FieldDef& f, const uint8_t* v) noexcept {
    switch (f.type) {
      case FieldType::string: case FieldType::bytes: return load<BytesSlot>(v).size != 0;
      case FieldType::message: case FieldType::group: return load<RecordPtr>(v) != nullptr;
      default:
        switch (value_size(f.type)) {
          case 8: return load<uint64_t>(v) != 0;
          case 4: return load<uint32_t>(v) != 0;
          default: return *v != 0;
        }
    }
  }

  HPPPROTO_INLINE static bool is_present(const FieldDef& f, const uint8_t* rec) noexcept {
    switch (f.label) {
      case Label::implicit: return is_nonzero(f, rec + f.offset);
      case Label::explicit_:
        if (f.type == FieldType::message || f.type == FieldType::group) return load<RecordPtr>(rec + f.offset) != nullptr;
        return (rec[f.hasbit_byte] & f.hasbit_mask) != 0;
      case Label::oneof: return load<uint32_t>(rec + f.presence) == f.number;
      default: return load<ArraySlot>(rec + f.offset).size != 0;
    }
  }

  // A message set field is an item group: start tag, type_id tag and value, message tag, end tag.
  static size_t message_set_item_overhead(uint32_t number) noexcept { return 4 + varint_size(number); }

  // Size of one value without its tag; nested messages are measured and their size recorded.
  HPPPROTO_INLINE bool measure_value(const FieldDef& f, const uint8_t* v, uint32_t depth, uint64_t& n) noexcept {
    switch (f.wire_type) {
      case WireType::varint: n = varint_size(varint_of(f.type, v)); return true;
      case WireType::fixed32: n = 4; return true;
      case WireType::fixed64: n = 8; return true;
      case WireType::sgroup: {
        if (!measure_nested(f.aux, load<RecordPtr>(v), depth, n)) return false;
        n += tag_size(f.number);  // the end-group tag
        return true;
      }
      default:
        if (f.type == FieldType::message) {
          const uint32_t at = sizes_used_;
          if (!reserve_size() || !measure_nested(f.aux, load<RecordPtr>(v), depth, n) || !check_size(n)) return false;
          sizes_.data()[at] = static_cast<uint32_t>(n);
        } else {
          n = load<BytesSlot>(v).size;
        }
        n += varint_size(n);
        return true;
    }
  }

  // A nested record; a null pointer (a oneof member or map value never filled in) is empty.
  bool measure_nested(uint32_t mi, const uint8_t* rec, uint32_t depth, uint64_t& n) noexcept {
    if (depth + 1 > limits_.max_depth) return status_.fail(Error::depth_limit, 0, limits_.max_depth);
    if (!rec) {
      n = 0;
      return true;
    }
    return measure_message(mi, rec, depth + 1, n);
  }

  bool measure_message(uint32_t mi, const uint8_t* rec, uint32_t depth, uint64_t& total) noexcept {
    const MessageDef& m = schema_.message(mi);
    const FieldDef* fields = schema_.fields(m);
    if (m.required_count != 0 && !(depth == 0 && limits_.allow_partial) && !check_required(m, mi, rec)) return false;
    total = 0;
    for (uint32_t i = 0; i < m.field_count; ++i) {
      const FieldDef& f = fields[i];
      if (!is_present(f, rec)) continue;
      const uint8_t* slot = rec + f.offset;
      const size_t tag = tag_size(f.number);
      int32_t element = -1;
      bool ok = true;
      uint64_t n = 0;
      if (!f.is_array()) {
        ok = measure_value(f, slot, depth, n);
        total += (m.message_set ? message_set_item_overhead(f.number) : tag) + n;
      } else if (f.label == Label::map) {
        ok = measure_map(f, load<ArraySlot>(slot), depth, tag, total, element);
      } else {
        const auto arr = load<ArraySlot>(slot);
        const auto* data = static_cast<const uint8_t*>(arr.data);
        if ((f.flags & field_flags::packed) && is_numeric(f.type)) {
          const uint32_t width = value_size(f.type);
          uint64_t body = 0;
          if (f.wire_type == WireType::varint) {
            const uint32_t at = sizes_used_;
            if (!reserve_size()) return false;
            body = measure_varint_run(f.type, data, arr.size);
            if (!check_size(body)) return false;
            sizes_.data()[at] = static_cast<uint32_t>(body);
          } else {
            body = uint64_t{arr.size} * width;
          }
          total += tag + varint_size(body) + body;
        } else {
          const uint32_t stride = element_stride(f.type);
          total += uint64_t{tag} * arr.size;
          for (uint32_t k = 0; k < arr.size && ok; ++k) {
            ok = measure_value(f, data + size_t{k} * stride, depth, n);
            total += n;
            if (!ok) element = static_cast<int32_t>(k);
          }
        }
      }
      if (!ok) {
        status_.push_frame(mi, f.number, element);
        return false;
      }
      if (total > limits_.max_message_size) {
        status_.push_frame(mi, f.number, -1);
        return status_.fail(Error::message_too_large, 0, limits_.max_message_size), false;
      }
    }
    const auto unknown = load<ArraySlot>(rec + unknown_fields_offset);
    for (uint32_t k = 0; k < unknown.size; ++k) total += static_cast<const BytesSlot*>(unknown.data)[k].size;
    return true;
  }

  // Map entries are written with both key and value, as protoc does, whatever their values.
  bool measure_map(const FieldDef& f, const ArraySlot& arr, uint32_t depth, size_t tag, uint64_t& total,
                   int32_t& element) noexcept {
    const MessageDef& entry = schema_.message(f.aux);
    const FieldDef* kv = schema_.fields(entry);
    for (uint32_t k = 0; k < arr.size; ++k) {
      const uint8_t* e = static_cast<const RecordPtr*>(arr.data)[k];
      const uint32_t at = sizes_used_;
      if (!reserve_size()) return false;
      uint64_t body = 0;
      for (uint32_t j = 0; j < 2; ++j) {
        uint64_t n = 0;
        if (e && !measure_value(kv[j], e + kv[j].offset, depth + 1, n)) {
          element = static_cast<int32_t>(k);
          return false;
        }
        if (!e) n = measure_absent(kv[j]);
        body += tag_size(kv[j].number) + n;
      }
      if (!check_size(body)) return false;
      sizes_.data()[at] = static_cast<uint32_t>(body);
      total += tag + varint_size(body) + body;
    }
    return true;
  }

  // An entry record that is missing altogether writes zero values.
  static uint64_t measure_absent(const FieldDef& f) noexcept {
    switch (f.wire_type) {
      case WireType::fixed32: return 4;
      case WireType::fixed64: return 8;
      default: return 1;  // a zero varint or a zero length
    }
  }

  bool check_required(const MessageDef& m, uint32_t mi, const uint8_t* rec) noexcept {
    const uint32_t* bits = schema_.required_hasbits(m);
    for (uint32_t i = 0; i < m.required_count; ++i) {
      if (rec[bits[i] >> 3] & (1u << (bits[i] & 7))) continue;
      const FieldDef* fs = schema_.fields(m);
      uint32_t number = 0;
      for (uint32_t j = 0; j < m.field_count; ++j) {
        if ((fs[j].flags & field_flags::required) && fs[j].presence == bits[i]) number = fs[j].number;
      }
      status_.fail(Error::missing_required, 0, number);
      status_.push_frame(mi, number, -1);
      return false;
    }
    return true;
  }

  // ---- writing ----

  static uint8_t* write_tag(uint8_t* p, uint32_t number, WireType wt) noexcept {
    return write_varint(p, make_tag(number, wt));
  }

  HPPPROTO_INLINE uint8_t* write_value(const FieldDef& f, const uint8_t* v, uint8_t* p) noexcept {
    switch (f.wire_type) {
      case WireType::varint: return write_varint(p, varint_of(f.type, v));
      case WireType::fixed32: std::memcpy(p, v, 4); return p + 4;
      case WireType::fixed64: std::memcpy(p, v, 8); return p + 8;
      case WireType::sgroup: {
        const uint8_t* sub = load<RecordPtr>(v);
        if (sub) p = write_message(f.aux, sub, p);
        return write_tag(p, f.number, WireType::egroup);
      }
      default:
        if (f.type == FieldType::message) {
          p = write_varint(p, next_size());
          const uint8_t* sub = load<RecordPtr>(v);
          return sub ? write_message(f.aux, sub, p) : p;
        } else {
          const auto s = load<BytesSlot>(v);
          p = write_varint(p, s.size);
          if (s.size) std::memcpy(p, s.data, s.size);
          return p + s.size;
        }
    }
  }

  uint8_t* write_message(uint32_t mi, const uint8_t* rec, uint8_t* p) noexcept {
    const MessageDef& m = schema_.message(mi);
    const FieldDef* fields = schema_.fields(m);
    for (uint32_t i = 0; i < m.field_count; ++i) {
      const FieldDef& f = fields[i];
      if (!is_present(f, rec)) continue;
      const uint8_t* slot = rec + f.offset;
      if (m.message_set) {
        p = write_tag(p, 1, WireType::sgroup);
        p = write_tag(p, 2, WireType::varint);
        p = write_varint(p, f.number);
        p = write_tag(p, 3, WireType::len);
        p = write_value(f, slot, p);
        p = write_tag(p, 1, WireType::egroup);
        continue;
      }
      if (!f.is_array()) {
        p = write_tag(p, f.number, f.wire_type);
        p = write_value(f, slot, p);
        continue;
      }
      const auto arr = load<ArraySlot>(slot);
      const auto* data = static_cast<const uint8_t*>(arr.data);
      if (f.label == Label::map) {
        const MessageDef& entry = schema_.message(f.aux);
        const FieldDef* kv = schema_.fields(entry);
        for (uint32_t k = 0; k < arr.size; ++k) {
          const uint8_t* e = static_cast<const RecordPtr*>(arr.data)[k];
          p = write_tag(p, f.number, WireType::len);
          p = write_varint(p, next_size());
          for (uint32_t j = 0; j < 2; ++j) {
            p = write_tag(p, kv[j].number, kv[j].wire_type);
            if (e) {
              p = write_value(kv[j], e + kv[j].offset, p);
            } else {
              const uint64_t zeros = measure_absent(kv[j]);
              std::memset(p, 0, zeros);
              p += zeros;
            }
          }
        }
        continue;
      }
      if ((f.flags & field_flags::packed) && is_numeric(f.type)) {
        const uint32_t width = value_size(f.type);
        p = write_tag(p, f.number, WireType::len);
        if (f.wire_type == WireType::varint) {
          p = write_varint(p, next_size());
          p = write_varint_run(f.type, data, arr.size, p);
        } else {
          const size_t bytes = size_t{arr.size} * width;
          p = write_varint(p, bytes);
          std::memcpy(p, data, bytes);
          p += bytes;
        }
        continue;
      }
      const uint32_t stride = element_stride(f.type);
      for (uint32_t k = 0; k < arr.size; ++k) {
        p = write_tag(p, f.number, f.wire_type);
        p = write_value(f, data + size_t{k} * stride, p);
      }
    }
    const auto unknown = load<ArraySlot>(rec + unknown_fields_offset);
    for (uint32_t k = 0; k < unknown.size; ++k) {
      const BytesSlot& s = static_cast<const BytesSlot*>(unknown.data)[k];
      std::memcpy(p, s.data, s.size);
      p += s.size;
    }
    return p;
  }

  // Calls each(v) with the varint of every element of a packed run: the switch on the element form
  // taken once, outside the loop.
  template <class Each>
  HPPPROTO_INLINE static void for_each_varint(FieldType t, const uint8_t* data, uint32_t n, Each each) noexcept {
    switch (t) {
      case FieldType::int32: case FieldType::enum_: return each_varint<FieldType::int32, 4>(data, n, each);
      case FieldType::uint32: return each_varint<FieldType::uint32, 4>(data, n, each);
      case FieldType::sint32: return each_varint<FieldType::sint32, 4>(data, n, each);
      case FieldType::sint64: return each_varint<FieldType::sint64, 8>(data, n, each);
      case FieldType::bool_: return each_varint<FieldType::bool_, 1>(data, n, each);
      default: return each_varint<FieldType::uint64, 8>(data, n, each);
    }
  }
  template <FieldType T, size_t Width, class Each>
  HPPPROTO_INLINE static void each_varint(const uint8_t* data, uint32_t n, Each& each) noexcept {
    for (uint32_t k = 0; k < n; ++k) each(varint_of<T>(data + Width * size_t{k}));
  }

  static uint64_t measure_varint_run(FieldType t, const uint8_t* data, uint32_t n) noexcept {
    uint64_t body = 0;
    for_each_varint(t, data, n, [&](uint64_t v) { body += varint_size(v); });
    return body;
  }

  static uint8_t* write_varint_run(FieldType t, const uint8_t* data, uint32_t n, uint8_t* p) noexcept {
    for_each_varint(t, data, n, [&](uint64_t v) { p = write_varint(p, v); });
    return p;
  }

  const Schema& schema_;
  Status& status_;
  const Limits& limits_;
  ScratchBuffer<uint32_t>& sizes_;
  uint32_t sizes_used_ = 0;
  uint32_t sizes_read_ = 0;
};

#undef HPPPROTO_INLINE

}  // namespace hppproto
