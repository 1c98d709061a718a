// A bump allocator over malloc'd blocks. Decoded records, copied input and arrays live here and are
// released together; reset() bumps the generation so JS views can tell they are stale.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace hppproto {

class Arena {
 public:
  static constexpr size_t alignment = 8;
  static constexpr size_t first_block_size = 64 * 1024;
  // Largest block, header included: below 2^31, where malloc's own size arithmetic and the JS
  // side's 32-bit rounding stay exact (ts/runtime.ts MAX_BLOCK is this less the header).
  static constexpr size_t max_block_size = 0x7fffffd0;

  explicit Arena(size_t limit_bytes = default_limit, size_t first_block = first_block_size) noexcept
      : limit_(limit_bytes), first_block_(first_block < alignment ? alignment : first_block) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() { free_blocks(head_); }

  // Returns nullptr when the limit is reached or malloc fails; the arena stays usable.
  [[gnu::always_inline]] uint8_t* allocate(size_t size) noexcept {
    if (size > SIZE_MAX - (alignment - 1)) return nullptr;  // rounding up would wrap to 0
    size = (size + alignment - 1) & ~(alignment - 1);
    if (size <= static_cast<size_t>(end_ - cur_)) {
      uint8_t* p = cur_;
      cur_ += size;
      return p;
    }
    return allocate_slow(size);
  }

  // The current block's free bytes, for a writer that learns its size as it writes: it writes at
  // most `room` bytes there, then keep(n) allocates the first n of them.
  uint8_t* free_space(size_t& room) const noexcept {
    room = static_cast<size_t>(end_ - cur_);
    return cur_;
  }
  void keep(size_t n) noexcept {
    const size_t room = static_cast<size_t>(end_ - cur_);
    n = (n + alignment - 1) & ~(alignment - 1);
    cur_ += n < room ? n : room;
  }

  [[gnu::always_inline]] uint8_t* allocate_zeroed(size_t size) noexcept {
    uint8_t* p = allocate(size);
    if (p) zero(p, size);
    return p;
  }

  // Zeroes an allocation (allocations are rounded up to 8 bytes). Records are small, and in WASM a memset becomes
  // memory.fill, which engines run as a call out of the module (V8: ~10 ns): plain stores are
  // cheaper up to a few hundred bytes. The empty asm keeps the compiler from turning the loop
  // back into a memset.
  static void zero(uint8_t* p, size_t size) noexcept {
    if (size > 256) {
      std::memset(p, 0, size);
      return;
    }
    for (size_t i = 0; i < size; i += 8) {
      const uint64_t z = 0;
      std::memcpy(p + i, &z, 8);
      asm volatile("" : : : "memory");
    }
  }

  // Where the arena stood; rewind() drops everything allocated since (a failed decode's leftovers).
  struct Checkpoint {
    const void* head;
    uint8_t* cur;
  };
  Checkpoint checkpoint() const noexcept { return {head_, cur_}; }
  void rewind(Checkpoint cp) noexcept {
    while (head_ && head_ != cp.head) {
      Block* next = head_->next;
      reserved_ -= header_size + head_->capacity;
      std::free(head_);
      head_ = next;
    }
    if (head_) {
      cur_ = cp.cur ? cp.cur : head_->data();
      end_ = head_->data() + head_->capacity;
    } else {
      cur_ = end_ = nullptr;
    }
  }

  // Frees every block but the newest (the largest) and starts over in it.
  void reset() noexcept {
    if (head_) {
      free_blocks(head_->next);
      head_->next = nullptr;
      cur_ = head_->data();
      end_ = cur_ + head_->capacity;
      reserved_ = head_->capacity + header_size;
    }
    ++generation_;
  }

  uint32_t generation() const noexcept { return generation_; }
  // Whether the last failed allocation failed on the limit (rather than malloc).
  bool failed_on_limit() const noexcept { return failed_on_limit_; }
  size_t reserved_bytes() const noexcept { return reserved_; }
  size_t limit() const noexcept { return limit_; }
  void set_limit(size_t limit_bytes) noexcept { limit_ = limit_bytes; }

#if SIZE_MAX > 0xffffffffu
  static constexpr size_t default_limit = size_t{4} << 30;
#else
  static constexpr size_t default_limit = size_t{0xffffffffu};
#endif

 private:
  struct Block {
    Block* next;
    size_t capacity;
    uint8_t* data() noexcept { return reinterpret_cast<uint8_t*>(this) + header_size; }
  };
  static constexpr size_t header_size = (sizeof(Block) + alignment - 1) & ~(alignment - 1);

  [[gnu::noinline]] uint8_t* allocate_slow(size_t size) noexcept {
    constexpr size_t max_capacity = max_block_size - header_size;
    failed_on_limit_ = false;
    if (size > max_capacity) return nullptr;
    if (reserved_ >= limit_) return fail_on_limit();
    const size_t room = limit_ - reserved_;
    size_t capacity = first_block_;  // then each block twice the last, up to the cap
    if (head_) capacity = head_->capacity <= max_capacity / 2 ? head_->capacity * 2 : max_capacity;
    if (capacity < size) capacity = size;
    if (header_size + capacity > room) {
      capacity = size;  // the doubling would cross the limit: try the exact size
      if (header_size + capacity > room) return fail_on_limit();
    }
    auto* block = static_cast<Block*>(std::malloc(header_size + capacity));
    if (!block) return nullptr;
    if (reinterpret_cast<uintptr_t>(block) > UINTPTR_MAX - (header_size + capacity)) {
      std::free(block);  // a block ending past the address space: its end pointer would wrap
      return nullptr;
    }
    block->next = head_;
    block->capacity = capacity;
    head_ = block;
    reserved_ += header_size + capacity;
    cur_ = block->data() + size;
    end_ = block->data() + capacity;
    return block->data();
  }

  uint8_t* fail_on_limit() noexcept {
    failed_on_limit_ = true;
    return nullptr;
  }

  static void free_blocks(Block* b) noexcept {
    while (b) {
      Block* next = b->next;
      std::free(b);
      b = next;
    }
  }

  // The JS runtime bump-allocates in JS through cur_ and end_ and rewinds to head_ (ts/abi.ts has
  // these offsets; wasm/exports.cpp's hp_abi() gives the compiler's, and a test compares them).
 public:
  static constexpr size_t cur_offset() noexcept;
  static constexpr size_t end_offset() noexcept;
  static constexpr size_t head_offset() noexcept;

 private:
  uint8_t* cur_ = nullptr;
  uint8_t* end_ = nullptr;
  Block* head_ = nullptr;
  size_t reserved_ = 0;
  size_t limit_;
  size_t first_block_;
  uint32_t generation_ = 0;
  bool failed_on_limit_ = false;
};

constexpr size_t Arena::cur_offset() noexcept { return offsetof(Arena, cur_); }
constexpr size_t Arena::end_offset() noexcept { return offsetof(Arena, end_); }
constexpr size_t Arena::head_offset() noexcept { return offsetof(Arena, head_); }

}  // namespace hppproto
