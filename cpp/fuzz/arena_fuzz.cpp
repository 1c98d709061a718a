// libFuzzer target for the arena: the input is a program of allocations (sizes drawn near 2^31,
// 2^32, the block cap and small), resets, checkpoints, rewinds and limit changes. Every block handed
// out must be aligned, lie apart from every other live one and be writable end to end (ASan checks
// its first and last bytes), and a size the arena cannot hold must give nullptr, never a wrapped,
// smaller block. Built 32-bit, so sizes wrap where wasm32's would.
#include <cstdint>
#include <cstring>
#include <vector>

#include "hppproto/arena.hpp"

using hppproto::Arena;

namespace {

struct Region {
  uintptr_t begin;
  uintptr_t end;
};

uint32_t take32(const uint8_t*& p, const uint8_t* end) {
  uint32_t v = 0;
  for (int i = 0; i < 4 && p < end; ++i) v |= uint32_t{*p++} << (8 * i);
  return v;
}

// A size near a boundary where 32-bit arithmetic breaks, or a small one.
size_t pick_size(uint32_t r) {
  const size_t k = r >> 8 & 0xff;
  switch (r & 7) {
    case 0: return SIZE_MAX - k;
    case 1: return (size_t{1} << 31) - k;
    case 2: return (size_t{1} << 31) + k;
    case 3: return Arena::max_block_size - k;
    case 4: return Arena::first_block_size + k;
    default: return r >> 8 & 0xffff;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* p = data;
  const uint8_t* end = data + size;
  Arena arena(take32(p, end) | 0x10000, 8 + (take32(p, end) & 0xffff));
  std::vector<Region> live;
  Arena::Checkpoint mark = arena.checkpoint();
  size_t live_at_mark = 0;
  for (int step = 0; step < 256 && p < end; ++step) {
    const uint8_t op = *p++;
    const uint32_t arg = take32(p, end);
    switch (op % 5) {
      case 0: {
        const size_t n = pick_size(arg);
        uint8_t* q = arena.allocate(n);
        if (!q) break;
        if (reinterpret_cast<uintptr_t>(q) % Arena::alignment != 0) __builtin_trap();
        const uintptr_t b = reinterpret_cast<uintptr_t>(q);
        if (n > UINTPTR_MAX - b) __builtin_trap();  // a block past the address space
        for (const Region& r : live) {
          if (b < r.end && r.begin < b + n) __builtin_trap();  // overlaps a live block
        }
        if (n > 0) {
          std::memset(q, 0xab, n < 16 ? n : 16);
          std::memset(q + n - (n < 16 ? n : 16), 0xcd, n < 16 ? n : 16);
        }
        live.push_back({b, b + n});
        break;
      }
      case 1:
        arena.reset();
        live.clear();
        live_at_mark = 0;
        mark = arena.checkpoint();
        break;
      case 2:
        mark = arena.checkpoint();
        live_at_mark = live.size();
        break;
      case 3:
        arena.rewind(mark);
        live.resize(live_at_mark);
        break;
      case 4:
        arena.set_limit(arg);
        break;
    }
  }
  return 0;
}
