// The table-driven decoder: one pass over the input, writing a tree of records into an arena.
// Strings and bytes point into the input (which the caller keeps alive, usually in the same arena);
// packed numeric runs become aligned native arrays (borrowed from the input when already aligned).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "arena.hpp"
#include "record.hpp"
#include "schema.hpp"
#include "status.hpp"
#include "utf8.hpp"
#include "wire.hpp"

namespace hppproto {

struct Limits {
  uint32_t max_depth = 100;
  uint32_t max_message_size = 0x7fffffffu;  // 2 GiB - 1, the protobuf limit
  uint32_t max_elements = 0x7fffffffu;      // per repeated field
  // A decode may add at most this many arena bytes per input byte, beyond budget_allowance: what
  // a hostile input can make of itself (1 MB of empty sub-messages would otherwise be a 1 GB arena).
  uint32_t max_amplification = 256;
  // Non-zero: the top-level message's proto2 required fields may be absent (those of messages inside
  // it are still checked). The JS side sets it around reading and writing one extension's bytes
  // alone, without the fields of the message it extends.
  uint32_t allow_partial = 0;
  static constexpr size_t budget_allowance = size_t{1} << 20;
  // ProtoJSON objects and arrays nested in one another, the top-level one included: the readers
  // refuse more and the writers write no more (the JS side checks its own number against this one
  // when it loads a module: ts/abi.ts).
  static constexpr uint32_t json_max_depth = 200;
};

// The arena limit under which a decode of input_size bytes stays within max_amplification: what
// the arena held when it began (`reserved`), plus the budget. Every sum saturates at SIZE_MAX
// instead of wrapping.
inline size_t budget_cap(size_t reserved, const Limits& limits, size_t input_size) noexcept {
  const size_t per_byte = limits.max_amplification ? limits.max_amplification : 1;
  size_t scaled;  // (no division: this runs once per decode, and a divide costs as much as a field)
  if (__builtin_mul_overflow(input_size, per_byte, &scaled)) scaled = SIZE_MAX;
  const size_t budget = scaled > SIZE_MAX - Limits::budget_allowance ? SIZE_MAX : scaled + Limits::budget_allowance;
  return budget > SIZE_MAX - reserved ? SIZE_MAX : reserved + budget;
}
inline size_t budget_cap(const Arena& arena, const Limits& limits, size_t input_size) noexcept {
  return budget_cap(arena.reserved_bytes(), limits, input_size);
}

class Decoder {
 public:
  Decoder(const Schema& schema, Arena& arena, Status& status, const Limits& limits) noexcept
      : schema_(schema), arena_(arena), status_(status), limits_(limits) {}

  // Decodes one message. Returns its record, or nullptr with the status set; on failure the arena
  // is rewound to where it stood.
  RecordPtr decode(uint32_t message_index, const uint8_t* data, size_t size) noexcept {
    status_.clear();
    base_ = data;
    const Budget budget(*this, size);
    const auto cp = arena_.checkpoint();
    RecordPtr rec = decode_top(message_index, data, size);
    if (!rec) finish_failure(cp);
    return rec;
  }

  // Decodes a run of length-delimited messages (varint length, then the message) filling `out`
  // with record pointers. A failure names the message's position with a path entry of field 0.
  bool decode_delimited(uint32_t message_index, const uint8_t* data, size_t size,
                        ArraySlot& out) noexcept {
    status_.clear();
    base_ = data;
    out = ArraySlot{nullptr, 0, 0};
    const Budget budget(*this, size);
    const auto cp = arena_.checkpoint();
    const uint8_t* p = data;
    const uint8_t* end = data + size;
    while (p < end) {
      const auto index = static_cast<int32_t>(out.size);
      uint64_t len;
      const auto r = read_varint(p, end, len);
      bool ok = false;
      if (r != VarintResult::ok) {
        fail_varint(r, p);
      } else if (len > static_cast<uint64_t>(end - p)) {
        fail(Error::length_out_of_bounds, p);
      } else if (auto** slot = grow<RecordPtr>(out, 1, p)) {
        *slot = decode_top(message_index, p, static_cast<size_t>(len));
        ok = *slot != nullptr;
        p += len;
      }
      if (!ok) {
        status_.push_frame(message_index, 0, index);
        finish_failure(cp);
        return false;
      }
    }
    return true;
  }

 private:
  // The arena's limit lowered to what this decode may add, for the decode's duration.
  class Budget {
   public:
    Budget(Decoder& d, size_t input_size) noexcept : d_(d), saved_(d.arena_.limit()) {
      const size_t cap = budget_cap(d.arena_, d.limits_, input_size);
      d.budget_in_force_ = cap < saved_;
      if (d.budget_in_force_) d.arena_.set_limit(cap);
    }
    ~Budget() {
      d_.arena_.set_limit(saved_);
      d_.budget_in_force_ = false;
    }
    Budget(const Budget&) = delete;
    Budget& operator=(const Budget&) = delete;

   private:
    Decoder& d_;
    size_t saved_;
  };

  // An allocation failed: past the decode's budget, or out of memory (the arena's own limit, or malloc).
  bool fail_allocation(const uint8_t* at) noexcept {
    if (budget_in_force_ && arena_.failed_on_limit()) return fail(Error::memory_budget, at, limits_.max_amplification);
    return fail(Error::out_of_memory, at);
  }

  RecordPtr decode_top(uint32_t message_index, const uint8_t* data, size_t size) noexcept {
    if (size > limits_.max_message_size) {
      fail(Error::message_too_large, data, limits_.max_message_size);
      return nullptr;
    }
    const MessageDef& m = schema_.message(message_index);
    RecordPtr rec = arena_.allocate_zeroed(m.record_size);
    if (!rec) {
      fail_allocation(data);
      return nullptr;
    }
    const uint8_t* stop;
    if (!parse_message(m, message_index, data, data + size, rec, 0, 0, stop)) return nullptr;
    return rec;
  }

  void finish_failure(Arena::Checkpoint cp) noexcept {
    status_.finish();
    arena_.rewind(cp);
  }

  bool fail(Error e, const uint8_t* at, uint32_t detail = 0) noexcept {
    return status_.fail(e, static_cast<uint32_t>(at - base_), detail);
  }
  bool fail_varint(VarintResult r, const uint8_t* at) noexcept {
    return fail(r == VarintResult::truncated ? Error::truncated : Error::varint_overlong, at);
  }

  // Parses fields until `end`, or until the end-group tag of `group_number` when it is non-zero.
  // On success `stop` is where parsing stopped (`end`, or just past the end-group tag); on failure
  // the status is set. The loop handles the common shapes (NumberEntry's FastOp) from one table
  // entry per field; everything else goes to parse_general_field, out of line, so that the loop stays
  // small enough for the engine to keep its state in registers. The position is a value and the
  // tables are locals because the loop stores bytes into the record, and a byte store may alias any
  // memory: whatever is read through a reference would be reloaded after each store.
  bool parse_message(const MessageDef& m, uint32_t mi, const uint8_t* p, const uint8_t* end, uint8_t* rec,
                     uint32_t depth, uint32_t group_number, const uint8_t*& stop) noexcept {
    const NumberEntry* const dense = m.dense;
    const uint32_t dense_size = m.dense_size;
    while (p < end) {
      const uint8_t* const field_start = p;
      uint32_t tag;
      if (const auto r = read_short_tag(p, end, tag); r != VarintResult::ok) return fail_varint(r, field_start);
      const uint32_t number = tag >> 3;
      if (number < dense_size && dense[number].tag == tag) {
        const NumberEntry& e = dense[number];
        uint8_t* const slot = rec + e.offset;
        switch (e.op) {
          case FastOp::general:
            break;
          case FastOp::varint: {
            uint64_t v;
            if (!read_varint_inline(p, end, v)) return fail_frame(mi, number, -1);
            store_varint(e.value, v, slot);
            mark_present(rec, e);
            continue;
          }
          case FastOp::fixed32:
            if (end - p < 4) return fail_in(mi, number, Error::truncated, p);
            std::memcpy(slot, p, 4);
            p += 4;
            mark_present(rec, e);
            continue;
          case FastOp::fixed64:
            if (end - p < 8) return fail_in(mi, number, Error::truncated, p);
            std::memcpy(slot, p, 8);
            p += 8;
            mark_present(rec, e);
            continue;
          case FastOp::length: {
            size_t len;
            const uint8_t* body = read_length_at(p, end, len);
            if (!body) return fail_frame(mi, number, -1);
            if (e.value == ValueOp::utf8_string && !is_valid_utf8(body, len))
              return fail_in(mi, number, Error::invalid_utf8, body);
            store(slot, BytesSlot{body, static_cast<uint32_t>(len)});
            p = body + len;
            mark_present(rec, e);
            continue;
          }
          case FastOp::message: {
            size_t len;
            const uint8_t* body = read_length_at(p, end, len);
            if (!body) return fail_frame(mi, number, -1);
            p = body + len;
            if (!merge_sub_message(slot, e.aux, body, p, depth)) return fail_frame(mi, number, -1);
            mark_present(rec, e);
            continue;
          }
          case FastOp::repeated_message: {
            auto& arr = *reinterpret_cast<ArraySlot*>(slot);
            size_t len;
            const uint8_t* body = read_length_at(p, end, len);
            if (!body) return fail_frame(mi, number, static_cast<int32_t>(arr.size));
            p = body + len;
            const MessageDef& sm = schema_.message(e.aux);
            RecordPtr sub = new_record(sm, body);
            RecordPtr* dst = sub ? grow<RecordPtr>(arr, 1, field_start) : nullptr;
            if (!dst) return fail_frame(mi, number, static_cast<int32_t>(arr.size));
            *dst = sub;
            if (!parse_sub_message(sm, e.aux, body, p, sub, depth)) return fail_frame(mi, number, static_cast<int32_t>(arr.size - 1));
            continue;
          }
        }
      }
      if (number == 0) return fail(Error::invalid_field_number, field_start);
      const auto wt = static_cast<WireType>(tag & 7);
      if (wt == WireType::egroup) {
        if (number == group_number) {
          stop = p;
          return m.required_count == 0 || (depth == 0 && limits_.allow_partial) || check_required(m, mi, rec, p);
        }
        return fail(Error::unmatched_end_group, field_start, number);
      }
      p = parse_general_field(m, mi, number, wt, field_start, p, end, rec, depth);
      if (!p) return false;  // a field's position is never null: it lies inside the input
    }
    if (group_number != 0) return fail(Error::unterminated_group, p, group_number);
    stop = p;
    return m.required_count == 0 || (depth == 0 && limits_.allow_partial) || check_required(m, mi, rec, p);
  }

  // Sets an explicit-presence field's bit. Most fields have none: a branch costs less than a store.
  static void mark_present(uint8_t* rec, const NumberEntry& e) noexcept {
    if (e.hasbit_mask) rec[e.hasbit_byte] |= e.hasbit_mask;
  }

  // A varint (read_short_varint). False with the status set.
  [[gnu::always_inline]] bool read_varint_inline(const uint8_t*& p, const uint8_t* end, uint64_t& v) noexcept {
    if (const auto r = read_short_varint(p, end, v); r != VarintResult::ok) return fail_varint(r, p);
    return true;
  }

  // Every field the loop in parse_message does not handle: singular fields the table sends here
  // (oneof members, closed enums, groups), unknown fields, message set items, repeated values
  // other than messages, and packed runs. A known field that arrives with a wire type its type
  // cannot have is kept as an unknown field, as protobuf's own parsers do. Returns the position
  // after the field, or nullptr with the status set.
  [[gnu::noinline]] const uint8_t* parse_general_field(const MessageDef& m, uint32_t mi, uint32_t number, WireType wt,
                                                       const uint8_t* field_start, const uint8_t* p,
                                                       const uint8_t* end, uint8_t* rec, uint32_t depth) noexcept {
    if (static_cast<uint32_t>(wt) > 5) return fail(Error::invalid_wire_type, field_start, number), nullptr;
    if (m.message_set && number == 1 && wt == WireType::sgroup) {
      if (!parse_message_set_item(m, mi, field_start, p, end, rec, depth)) return nullptr;
      return p;
    }
    const FieldDef* f = schema_.find(m, number);
    const bool readable = f && (wt == f->wire_type || (f->is_array() && wt == WireType::len && is_numeric(f->type)));
    if (!readable) {
      if (!skip_field(number, wt, p, end, depth)) return nullptr;
      if (!add_unknown(rec, field_start, p)) return nullptr;
      return p;
    }
    int32_t element = -1;
    if (!parse_field(*f, wt, field_start, p, end, rec, depth, element)) return fail_frame(mi, number, element), nullptr;
    return p;
  }

  // Reads a length prefix at p that fits before end: returns the body and sets len, or returns
  // nullptr with the status set. Always inlined, so len stays in a register.
  [[gnu::always_inline]] const uint8_t* read_length_at(const uint8_t* p, const uint8_t* end, size_t& len) noexcept {
    uint64_t n;
    if (const auto r = read_short_varint(p, end, n); r != VarintResult::ok) {
      fail_varint(r, p);
      return nullptr;
    }
    if (n > static_cast<uint64_t>(end - p)) {
      fail(Error::length_out_of_bounds, p);
      return nullptr;
    }
    len = static_cast<size_t>(n);
    return p;
  }

  // Adds a frame to the failing status's path while unwinding.
  [[gnu::cold, gnu::noinline]] bool fail_frame(uint32_t mi, uint32_t number, int32_t element) noexcept {
    status_.push_frame(mi, number, element);
    return false;
  }

  template <class T>
  static void store(uint8_t* slot, const T& v) noexcept {
    std::memcpy(slot, &v, sizeof v);
  }

  bool fail_in(uint32_t mi, uint32_t number, Error e, const uint8_t* at) noexcept {
    fail(e, at, number);
    status_.push_frame(mi, number, -1);
    return false;
  }

  bool check_required(const MessageDef& m, uint32_t mi, const uint8_t* rec, const uint8_t* at) noexcept {
    const uint32_t* bits = schema_.required_hasbits(m);
    for (uint32_t i = 0; i < m.required_count; ++i) {
      if (!(rec[bits[i] >> 3] & (1u << (bits[i] & 7)))) {
        const FieldDef* fs = schema_.fields(m);
        uint32_t number = 0;
        for (uint32_t j = 0; j < m.field_count; ++j) {
          if ((fs[j].flags & field_flags::required) && fs[j].presence == bits[i]) number = fs[j].number;
        }
        fail(Error::missing_required, at, number);
        status_.push_frame(mi, number, -1);
        return false;
      }
    }
    return true;
  }

  // A map entry without its value holds an empty message there; when that message has required
  // fields they are missing (as protobuf's IsInitialized() finds), so the entry is an error.
  bool check_map_value(uint32_t entry_index, const uint8_t* entry, const uint8_t* at) noexcept {
    const FieldDef& value = schema_.fields(schema_.message(entry_index))[1];
    if (value.type != FieldType::message) return true;
    const MessageDef& vm = schema_.message(value.aux);
    RecordPtr sub;
    std::memcpy(&sub, entry + value.offset, sizeof sub);
    if (vm.required_count == 0 || sub != nullptr) return true;
    RecordPtr empty = new_record(value.aux, at);
    return empty && check_required(vm, value.aux, empty, at);
  }

  bool skip_field(uint32_t number, WireType wt, const uint8_t*& p, const uint8_t* end,
                  uint32_t depth) noexcept {
    switch (wt) {
      case WireType::varint: {
        uint64_t v;
        const auto r = read_varint(p, end, v);
        return r == VarintResult::ok || fail_varint(r, p);
      }
      case WireType::fixed64:
        if (end - p < 8) return fail(Error::truncated, p);
        p += 8;
        return true;
      case WireType::fixed32:
        if (end - p < 4) return fail(Error::truncated, p);
        p += 4;
        return true;
      case WireType::len: {
        size_t len;
        const uint8_t* body = read_length_at(p, end, len);
        if (!body) return false;
        p = body + len;
        return true;
      }
      case WireType::sgroup: {
        if (depth + 1 > limits_.max_depth) return fail(Error::depth_limit, p, limits_.max_depth);
        while (true) {
          if (p >= end) return fail(Error::unterminated_group, p, number);
          const uint8_t* field_start = p;
          uint32_t tag;
          if (const auto r = read_tag(p, end, tag); r != VarintResult::ok) return fail_varint(r, field_start);
          const uint32_t inner = tag >> 3;
          const auto inner_wt = static_cast<WireType>(tag & 7);
          if (inner == 0) return fail(Error::invalid_field_number, field_start);
          if (inner_wt == WireType::egroup) {
            if (inner == number) return true;
            return fail(Error::unmatched_end_group, field_start, inner);
          }
          if (static_cast<uint32_t>(inner_wt) > 5) return fail(Error::invalid_wire_type, field_start, inner);
          if (!skip_field(inner, inner_wt, p, end, depth + 1)) return false;
        }
      }
      default:
        return fail(Error::invalid_wire_type, p, number);
    }
  }

  // One message set item: group 1 { type_id = 2 (varint), message = 3 (bytes) } in any order.
  // The first type_id and the first message count, as in protobuf's C++ parser; other fields of the
  // item are skipped. An item whose type_id names no field is kept whole as an unknown field.
  bool parse_message_set_item(const MessageDef& m, uint32_t mi, const uint8_t* item_start,
                              const uint8_t*& p, const uint8_t* end, uint8_t* rec, uint32_t depth) noexcept {
    uint64_t type_id = 0;
    const uint8_t* body = nullptr;
    size_t len = 0;
    for (;;) {
      if (p >= end) return fail(Error::unterminated_group, p, 1);
      const uint8_t* field_start = p;
      uint32_t tag;
      if (const auto r = read_tag(p, end, tag); r != VarintResult::ok) return fail_varint(r, field_start);
      const uint32_t number = tag >> 3;
      const auto wt = static_cast<WireType>(tag & 7);
      if (number == 0) return fail(Error::invalid_field_number, field_start);
      if (wt == WireType::egroup) {
        if (number == 1) break;
        return fail(Error::unmatched_end_group, field_start, number);
      }
      if (number == 2 && wt == WireType::varint && type_id == 0) {
        if (const auto r = read_varint(p, end, type_id); r != VarintResult::ok) return fail_varint(r, p);
      } else if (number == 3 && wt == WireType::len && body == nullptr) {
        if (!(body = read_length_at(p, end, len))) return false;
        p = body + len;
      } else if (static_cast<uint32_t>(wt) > 5) {
        return fail(Error::invalid_wire_type, field_start, number);
      } else if (!skip_field(number, wt, p, end, depth + 1)) {
        return false;
      }
    }
    const FieldDef* f = type_id <= max_field_number ? schema_.find(m, static_cast<uint32_t>(type_id)) : nullptr;
    if (!f || !body) return add_unknown(rec, item_start, p);
    rec[f->hasbit_byte] |= f->hasbit_mask;
    if (!merge_sub_message(rec + f->offset, f->aux, body, body + len, depth)) return status_.push_frame(mi, f->number, -1), false;
    return true;
  }

  // A singular message field: its bytes merge into the record already there, or a new one.
  bool merge_sub_message(uint8_t* slot, uint32_t mi, const uint8_t* body, const uint8_t* body_end,
                         uint32_t depth) noexcept {
    const MessageDef& m = schema_.message(mi);
    RecordPtr sub;
    std::memcpy(&sub, slot, sizeof sub);
    if (!sub) {
      if (!(sub = new_record(m, body))) return false;
      store(slot, sub);
    }
    return parse_sub_message(m, mi, body, body_end, sub, depth);
  }

  // Records an unknown field's bytes, extending the previous range when they are adjacent.
  bool add_unknown(uint8_t* rec, const uint8_t* start, const uint8_t* end) noexcept {
    auto& list = *reinterpret_cast<ArraySlot*>(rec + unknown_fields_offset);
    if (list.size > 0) {
      BytesSlot& last = static_cast<BytesSlot*>(list.data)[list.size - 1];
      if (last.data + last.size == start) {
        last.size += static_cast<uint32_t>(end - start);
        return true;
      }
    }
    BytesSlot* slot = grow<BytesSlot>(list, 1, start);
    if (!slot) return false;
    *slot = BytesSlot{start, static_cast<uint32_t>(end - start)};
    return true;
  }

  // A closed enum value outside the enum: kept as an unknown varint field, re-encoded if it came
  // from a packed run (where it has no bytes of its own).
  bool add_unknown_enum(uint8_t* rec, uint32_t number, uint64_t raw, const uint8_t* at) noexcept {
    const uint32_t tag = make_tag(number, WireType::varint);
    uint8_t* bytes = arena_.allocate(varint_size(tag) + varint_size(raw));
    if (!bytes) return fail_allocation(at);
    uint8_t* e = write_varint(write_varint(bytes, tag), raw);
    return add_unknown(rec, bytes, e);
  }

  // Makes room for n more elements, returning a pointer to the first, or nullptr with status set.
  template <class T>
  [[gnu::always_inline]] T* grow(ArraySlot& a, uint32_t n, const uint8_t* at) noexcept {
    if (n <= a.capacity - a.size && a.capacity != 0) {  // capacity 0: empty, or borrowed from the input
      T* out = static_cast<T*>(a.data) + a.size;
      a.size += n;
      return out;
    }
    return static_cast<T*>(grow_storage(a, n, sizeof(T), at));
  }

  [[gnu::noinline]] void* grow_storage(ArraySlot& a, uint32_t n, size_t width, const uint8_t* at) noexcept {
    if (n > limits_.max_elements - a.size) {
      fail(Error::too_many_elements, at, limits_.max_elements);
      return nullptr;
    }
    const uint32_t needed = a.size + n;
    if (needed > a.capacity) {
      // A first run is sized exactly (a packed run knows its count); appends double.
      uint32_t cap = a.capacity == 0 ? (needed < 4 ? 4 : needed) : a.capacity;
      while (cap < needed) cap = cap > 0x7fffffffu ? needed : cap * 2;
      if (cap > limits_.max_elements) cap = limits_.max_elements;  // grow()'s fast path relies on it
      if (cap > SIZE_MAX / width) {  // size_t is 32 bits on wasm32
        fail_allocation(at);
        return nullptr;
      }
      void* fresh = arena_.allocate(static_cast<size_t>(cap) * width);
      if (!fresh) {
        fail_allocation(at);
        return nullptr;
      }
      if (a.size) std::memcpy(fresh, a.data, static_cast<size_t>(a.size) * width);
      a.data = fresh;
      a.capacity = cap;
    }
    uint8_t* out = static_cast<uint8_t*>(a.data) + static_cast<size_t>(a.size) * width;
    a.size = needed;
    return out;
  }

  // A oneof member is about to be stored: when the case changes, clear the shared slot first so that
  // a stale record pointer of another member is never merged into.
  static void select_oneof_member(const FieldDef& f, uint8_t* rec) noexcept {
    if (f.label != Label::oneof) return;
    uint32_t current;
    std::memcpy(&current, rec + f.presence, 4);
    if (current != f.number) {
      std::memset(rec + f.offset, 0, f.slot_size());
      std::memcpy(rec + f.presence, &f.number, 4);
    }
  }

  // False for a closed enum value outside the enum, which goes to the unknown fields instead.
  bool is_known_value(const FieldDef& f, uint64_t v) const noexcept {
    return f.op != ValueOp::closed_enum ||
           schema_.enum_contains(f.aux, static_cast<int32_t>(static_cast<uint32_t>(v)));
  }

  // Stores a varint-encoded value in its in-record form; 32-bit types keep the low 32 bits as
  // protobuf specifies.
  static void store_varint(ValueOp op, uint64_t v, uint8_t* dst) noexcept {
    switch (op) {
      case ValueOp::varint64: store<uint64_t>(dst, v); break;
      case ValueOp::zigzag32: store<uint32_t>(dst, zigzag_decode32(static_cast<uint32_t>(v))); break;
      case ValueOp::zigzag64: store<uint64_t>(dst, zigzag_decode64(v)); break;
      case ValueOp::boolean: *dst = v != 0; break;
      default: store<uint32_t>(dst, static_cast<uint32_t>(v)); break;  // varint32, enums
    }
  }

  bool parse_field(const FieldDef& f, WireType wt, const uint8_t* field_start, const uint8_t*& p,
                   const uint8_t* end, uint8_t* rec, uint32_t depth, int32_t& element) noexcept {
    uint8_t* slot = rec + f.offset;
    if (f.is_array()) {
      auto& arr = *reinterpret_cast<ArraySlot*>(slot);
      element = static_cast<int32_t>(arr.size);
      if (wt != f.wire_type) return parse_packed(f, p, end, rec, arr);  // parse_general_field let only a packed run through
      return parse_repeated_value(f, field_start, p, end, rec, arr, depth);
    }
    if (f.op == ValueOp::group) {
      select_oneof_member(f, rec);
      rec[f.hasbit_byte] |= f.hasbit_mask;
      RecordPtr sub;
      std::memcpy(&sub, slot, sizeof sub);
      if (!sub && !(sub = new_record(f.aux, p))) return false;
      store(slot, sub);
      return parse_group(f, p, end, sub, depth);
    }
    switch (f.op) {
      case ValueOp::fixed32:
        if (end - p < 4) return fail(Error::truncated, p, f.number);
        select_oneof_member(f, rec);
        std::memcpy(slot, p, 4);
        p += 4;
        break;
      case ValueOp::fixed64:
        if (end - p < 8) return fail(Error::truncated, p, f.number);
        select_oneof_member(f, rec);
        std::memcpy(slot, p, 8);
        p += 8;
        break;
      case ValueOp::utf8_string:
      case ValueOp::bytes: {
        size_t len;
        const uint8_t* body = read_length_at(p, end, len);
        if (!body || !check_utf8(f, body, len)) return false;
        select_oneof_member(f, rec);
        store(slot, BytesSlot{body, static_cast<uint32_t>(len)});
        p = body + len;
        break;
      }
      case ValueOp::message: {
        size_t len;
        const uint8_t* body = read_length_at(p, end, len);
        if (!body) return false;
        p = body + len;
        select_oneof_member(f, rec);
        if (!merge_sub_message(slot, f.aux, body, p, depth)) return false;
        break;
      }
      default: {  // varints
        uint64_t v;
        if (const auto r = read_varint(p, end, v); r != VarintResult::ok) return fail_varint(r, p);
        if (!is_known_value(f, v)) return add_unknown(rec, field_start, p);
        select_oneof_member(f, rec);
        store_varint(f.op, v, slot);
        break;
      }
    }
    rec[f.hasbit_byte] |= f.hasbit_mask;
    return true;
  }

  bool parse_repeated_value(const FieldDef& f, const uint8_t* field_start, const uint8_t*& p,
                            const uint8_t* end, uint8_t* rec, ArraySlot& arr, uint32_t depth) noexcept {
    switch (f.wire_type) {
      case WireType::varint: {
        uint64_t v;
        if (const auto r = read_varint(p, end, v); r != VarintResult::ok) return fail_varint(r, p);
        if (!is_known_value(f, v)) return add_unknown(rec, field_start, p);
        uint8_t* dst = grow_bytes(arr, value_size(f.type), field_start);
        if (!dst) return false;
        store_varint(f.op, v, dst);
        return true;
      }
      case WireType::fixed64:
      case WireType::fixed32: {
        const uint32_t width = value_size(f.type);
        if (static_cast<size_t>(end - p) < width) return fail(Error::truncated, p);
        uint8_t* dst = grow_bytes(arr, width, field_start);
        if (!dst) return false;
        std::memcpy(dst, p, width);
        p += width;
        return true;
      }
      case WireType::len: {
        size_t len;
        const uint8_t* body = read_length_at(p, end, len);
        if (!body) return false;
        if (f.type == FieldType::message) {
          RecordPtr sub = new_record(f.aux, body);
          if (!sub) return false;
          RecordPtr* dst = grow<RecordPtr>(arr, 1, field_start);
          if (!dst) return false;
          *dst = sub;
          p = body + len;
          if (!parse_sub_message(f.aux, body, p, sub, depth)) return false;
          return f.label != Label::map || check_map_value(f.aux, sub, body);
        }
        if (!check_utf8(f, body, len)) return false;
        BytesSlot* dst = grow<BytesSlot>(arr, 1, field_start);
        if (!dst) return false;
        *dst = BytesSlot{body, static_cast<uint32_t>(len)};
        p = body + len;
        return true;
      }
      default: {  // group
        RecordPtr sub = new_record(f.aux, p);
        if (!sub) return false;
        RecordPtr* dst = grow<RecordPtr>(arr, 1, field_start);
        if (!dst) return false;
        *dst = sub;
        return parse_group(f, p, end, sub, depth);
      }
    }
  }

  uint8_t* grow_bytes(ArraySlot& arr, uint32_t width, const uint8_t* at) noexcept {
    switch (width) {
      case 8: return reinterpret_cast<uint8_t*>(grow<uint64_t>(arr, 1, at));
      case 4: return reinterpret_cast<uint8_t*>(grow<uint32_t>(arr, 1, at));
      default: return grow<uint8_t>(arr, 1, at);
    }
  }

  bool parse_packed(const FieldDef& f, const uint8_t*& p, const uint8_t* end, uint8_t* rec,
                    ArraySlot& arr) noexcept {
    size_t len;
    const uint8_t* body = read_length_at(p, end, len);
    if (!body) return false;
    const uint8_t* run_end = body + len;
    p = run_end;
    if (len == 0) return true;
    if (f.wire_type != WireType::varint) {
      const uint32_t width = value_size(f.type);
      if (len % width != 0) return fail(Error::packed_length, body, f.number);
      const size_t count = len / width;
      if (count > limits_.max_elements - arr.size) return fail(Error::too_many_elements, body, limits_.max_elements);
      // An aligned run is used in place: the zero-copy case for large numeric arrays.
      if (arr.size == 0 && reinterpret_cast<uintptr_t>(body) % width == 0) {
        arr = ArraySlot{const_cast<uint8_t*>(body), static_cast<uint32_t>(count), 0};
        return true;
      }
      uint8_t* dst = width == 8 ? reinterpret_cast<uint8_t*>(grow<uint64_t>(arr, static_cast<uint32_t>(count), body))
                                : reinterpret_cast<uint8_t*>(grow<uint32_t>(arr, static_cast<uint32_t>(count), body));
      if (!dst) return false;
      std::memcpy(dst, body, len);
      return true;
    }
    if (run_end[-1] & 0x80) return fail(Error::truncated, run_end);
    const size_t count = count_varints(body, run_end);
    if (count > limits_.max_elements - arr.size) return fail(Error::too_many_elements, body, limits_.max_elements);
    const uint32_t width = value_size(f.type);
    uint8_t* dst;
    switch (width) {
      case 8: dst = reinterpret_cast<uint8_t*>(grow<uint64_t>(arr, static_cast<uint32_t>(count), body)); break;
      case 4: dst = reinterpret_cast<uint8_t*>(grow<uint32_t>(arr, static_cast<uint32_t>(count), body)); break;
      default: dst = grow<uint8_t>(arr, static_cast<uint32_t>(count), body); break;
    }
    if (!dst) return false;
    if (f.op != ValueOp::closed_enum) return decode_varint_run(f.op, body, run_end, dst);
    const uint8_t* q = body;
    uint32_t stored = 0;
    while (q < run_end) {
      const uint8_t* value_start = q;
      uint64_t v;
      if (const auto r = read_varint(q, run_end, v); r != VarintResult::ok) return fail_varint(r, value_start);
      if (is_known_value(f, v)) {
        store_varint(f.op, v, dst);
        dst += width;
        ++stored;
      } else if (!add_unknown_enum(rec, f.number, v, value_start)) {
        return false;
      }
    }
    arr.size -= static_cast<uint32_t>(count) - stored;  // closed-enum values that went to unknowns
    return true;
  }

  // The hot loop for large packed varint arrays: one specialised loop per in-record form, and no
  // bounds checks per byte (the run ends on a terminator, checked by the caller).
  bool decode_varint_run(ValueOp op, const uint8_t* q, const uint8_t* end, uint8_t* dst) noexcept {
    switch (op) {
      case ValueOp::varint64: return varint_run<uint64_t>(q, end, dst, [](uint64_t v) { return v; });
      case ValueOp::zigzag64: return varint_run<uint64_t>(q, end, dst, [](uint64_t v) { return zigzag_decode64(v); });
      case ValueOp::zigzag32:
        return varint_run<uint32_t>(q, end, dst, [](uint64_t v) { return zigzag_decode32(static_cast<uint32_t>(v)); });
      case ValueOp::boolean: return varint_run<uint8_t>(q, end, dst, [](uint64_t v) { return uint8_t{v != 0}; });
      default: return varint_run<uint32_t>(q, end, dst, [](uint64_t v) { return static_cast<uint32_t>(v); });
    }
  }

  template <class T, class Convert>
  bool varint_run(const uint8_t* q, const uint8_t* end, uint8_t* dst, Convert convert) noexcept {
    T* out = reinterpret_cast<T*>(dst);
    while (q < end) {
      const uint8_t* value_start = q;
      uint64_t v;
      if (!read_terminated_varint(q, v)) return fail(Error::varint_overlong, value_start);
      store<T>(reinterpret_cast<uint8_t*>(out++), convert(v));
    }
    return true;
  }

  bool check_utf8(const FieldDef& f, const uint8_t* body, size_t len) noexcept {
    if (f.op == ValueOp::utf8_string && !is_valid_utf8(body, len))
      return fail(Error::invalid_utf8, body, f.number);
    return true;
  }

  RecordPtr new_record(uint32_t message_index, const uint8_t* at) noexcept {
    return new_record(schema_.message(message_index), at);
  }
  RecordPtr new_record(const MessageDef& m, const uint8_t* at) noexcept {
    RecordPtr rec = arena_.allocate_zeroed(m.record_size);
    if (!rec) fail_allocation(at);
    return rec;
  }

  bool parse_sub_message(uint32_t mi, const uint8_t* body, const uint8_t* body_end, RecordPtr sub,
                         uint32_t depth) noexcept {
    return parse_sub_message(schema_.message(mi), mi, body, body_end, sub, depth);
  }
  bool parse_sub_message(const MessageDef& m, uint32_t mi, const uint8_t* body, const uint8_t* body_end,
                         RecordPtr sub, uint32_t depth) noexcept {
    if (depth + 1 > limits_.max_depth) return fail(Error::depth_limit, body, limits_.max_depth);
    const uint8_t* stop;
    return parse_message(m, mi, body, body_end, sub, depth + 1, 0, stop);
  }

  bool parse_group(const FieldDef& f, const uint8_t*& p, const uint8_t* end, RecordPtr sub,
                   uint32_t depth) noexcept {
    if (depth + 1 > limits_.max_depth) return fail(Error::depth_limit, p, limits_.max_depth);
    const uint8_t* after;
    if (!parse_message(schema_.message(f.aux), f.aux, p, end, sub, depth + 1, f.number, after)) return false;
    p = after;
    return true;
  }

  const Schema& schema_;
  Arena& arena_;
  Status& status_;
  const Limits& limits_;
  const uint8_t* base_ = nullptr;
  bool budget_in_force_ = false;  // the arena's limit is this decode's budget (Budget)
};

}  // namespace hppproto
