// The slots of a decoded record. Layouts (slot offsets) come from the schema table; these are the
// shapes found at those offsets. On wasm32 pointers are 4 bytes, which the code generator assumes.
#pragma once
#include <cstdint>
#include <cstring>

namespace hppproto {

// string / bytes: points into the arena copy of the input.
struct BytesSlot {
  const uint8_t* data;
  uint32_t size;
};

// repeated fields, map entries and the unknown-field list. capacity == 0 with size > 0 means the
// elements are borrowed from the input (an aligned packed run) and must be copied before appending.
struct ArraySlot {
  void* data;
  uint32_t size;
  uint32_t capacity;
};

// singular and repeated sub-messages are record pointers.
using RecordPtr = uint8_t*;

// Every record starts with its unknown fields: an ArraySlot of BytesSlot ranges, in input order.
constexpr uint32_t unknown_fields_offset = 0;
constexpr uint32_t record_header_size = sizeof(ArraySlot);

// The slot or value of type T at p (records are packed by the layout, so by memcpy).
template <class T>
inline T load(const uint8_t* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace hppproto
