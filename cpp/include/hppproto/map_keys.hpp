// Whether a map's entry records hold each key once: the JSON reader refuses a key given twice, and
// the JSON writer leaves a map whose wire data repeated a key to the JS writer.
//
// Keys are hashed into an open-addressing set, with a budget of probes: keys crafted to collide
// (FNV-1a is not keyed; any hash without a secret can be collided) spend the budget, and the map
// is then heapsorted instead, so no input costs more than O(n log n) key comparisons. Sorting outright
// would be simpler but is slower on ordinary maps (measured natively, ns per key, hashing against
// sorting: 11 vs 17 at 20 string keys, 14 vs 62 at 1,000, 16 vs 151 at 10,000; 6 vs 15-116 for int32 keys).
#pragma once
#include <utility>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "record.hpp"
#include "schema.hpp"

namespace hppproto {

class MapKeys {
 public:
  // Probes allowed per key before sorting takes over; ordinary maps (half-full table) take 1-3.
  static constexpr size_t probes_per_key = 8;

  MapKeys(const FieldDef& key, const RecordPtr* recs) noexcept
      : recs_(recs), offset_(key.offset), width_(value_size(key.type)), is_string_(key.type == FieldType::string) {}

  // Keys compare by value (strings by their bytes); an entry record missing altogether has the zero key.
  bool distinct(uint32_t count, std::vector<uint32_t>& scratch) const noexcept {
    if (count <= 16) {
      for (uint32_t i = 1; i < count; ++i)
        for (uint32_t j = 0; j < i; ++j)
          if (compare(i, j) == 0) return false;
      return true;
    }
    uint32_t slots = 32;
    while (slots < count * 2) slots *= 2;
    scratch.assign(slots, 0);
    size_t budget = size_t{count} * probes_per_key;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t h = hash(i) & (slots - 1);
      for (; scratch[h] != 0; h = (h + 1) & (slots - 1)) {
        if (budget-- == 0) return distinct_sorted(count, scratch);
        if (compare(scratch[h] - 1, i) == 0) return false;
      }
      scratch[h] = i + 1;
    }
    return true;
  }

 private:
  const uint8_t* bytes(uint32_t i, size_t& n) const noexcept {
    static constexpr uint8_t zero[sizeof(uint64_t) + sizeof(BytesSlot)] = {};
    const uint8_t* k = recs_[i] ? recs_[i] + offset_ : zero;
    n = width_;
    if (!is_string_) return k;
    const auto s = load<BytesSlot>(k);
    n = s.size;
    return s.data;
  }

  // An order of keys: by size, then bytes (any total order will do). Out of line: 1 KB of module
  // less, and ordinary maps call it about once per key.
  [[gnu::noinline]] int compare(uint32_t i, uint32_t j) const noexcept {
    size_t n, m;
    const uint8_t* a = bytes(i, n);
    const uint8_t* b = bytes(j, m);
    if (n != m) return n < m ? -1 : 1;
    return n == 0 ? 0 : std::memcmp(a, b, n);
  }

  // FNV-1a, its high bits mixed into the low bits the table uses.
  uint32_t hash(uint32_t i) const noexcept {
    size_t n;
    const uint8_t* b = bytes(i, n);
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; ++k) h = (h ^ b[k]) * 16777619u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    return h ^ (h >> 12);
  }

  // The fallback: the indexes heapsorted by key (O(n log n) at worst, and a fraction of the code
  // std::sort adds: 7.9 KB of module), then neighbours compared.
  [[gnu::noinline]] bool distinct_sorted(uint32_t count, std::vector<uint32_t>& order) const noexcept {
    order.resize(count);
    for (uint32_t i = 0; i < count; ++i) order[i] = i;
    uint32_t* heap = order.data();
    for (uint32_t i = count / 2; i-- > 0;) sift_down(heap, i, count);
    for (uint32_t end = count; end-- > 1;) {
      std::swap(heap[0], heap[end]);
      sift_down(heap, 0, end);
    }
    for (uint32_t i = 1; i < count; ++i)
      if (compare(order[i - 1], order[i]) == 0) return false;
    return true;
  }

  // Moves heap[i] down until the subtree under it (within size) is a max-heap again.
  void sift_down(uint32_t* heap, uint32_t i, uint32_t size) const noexcept {
    for (;;) {
      uint32_t largest = i;
      const uint32_t left = 2 * i + 1, right = left + 1;
      if (left < size && compare(heap[left], heap[largest]) > 0) largest = left;
      if (right < size && compare(heap[right], heap[largest]) > 0) largest = right;
      if (largest == i) return;
      std::swap(heap[i], heap[largest]);
      i = largest;
    }
  }

  const RecordPtr* recs_;
  uint32_t offset_;
  size_t width_;
  bool is_string_;
};

inline bool distinct_map_keys(const FieldDef& key, const RecordPtr* recs, uint32_t count,
                              std::vector<uint32_t>& scratch) noexcept {
  return MapKeys(key, recs).distinct(count, scratch);
}

}  // namespace hppproto
