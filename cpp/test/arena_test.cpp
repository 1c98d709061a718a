#include "hppproto/arena.hpp"

#include <gtest/gtest.h>

using hppproto::Arena;

TEST(Arena, AlignsAndGrows) {
  Arena a;
  uint8_t* p1 = a.allocate(3);
  uint8_t* p2 = a.allocate(5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p1) % 8, 0u);
  EXPECT_EQ(p2 - p1, 8);
  uint8_t* big = a.allocate(1 << 20);
  ASSERT_NE(big, nullptr);
  big[(1 << 20) - 1] = 1;
  EXPECT_GE(a.reserved_bytes(), size_t{1} << 20);
}

TEST(Arena, ResetKeepsOneBlockAndBumpsTheGeneration) {
  Arena a;
  for (int i = 0; i < 100; ++i) ASSERT_NE(a.allocate(10000), nullptr);
  const uint32_t g = a.generation();
  const size_t before = a.reserved_bytes();
  a.reset();
  EXPECT_EQ(a.generation(), g + 1);
  EXPECT_LT(a.reserved_bytes(), before);
  EXPECT_GE(a.reserved_bytes(), size_t{1} << 20);  // the newest (largest) block stays
  EXPECT_NE(a.allocate(10), nullptr);
}

TEST(Arena, FreeSpaceIsWhatKeepAllocates) {
  Arena a(Arena::default_limit, 64);
  size_t room = 1;
  EXPECT_EQ(a.free_space(room), nullptr);  // no block yet
  EXPECT_EQ(room, 0u);
  uint8_t* first = a.allocate(8);
  uint8_t* p = a.free_space(room);
  EXPECT_EQ(p, first + 8);
  EXPECT_EQ(room, 56u);
  a.keep(13);  // rounded up, as allocate() rounds
  EXPECT_EQ(a.allocate(1), p + 16);
  a.free_space(room);
  a.keep(room);  // the whole block: the next allocation takes a new one
  uint8_t* next = a.allocate(8);
  EXPECT_TRUE(next < first || next >= first + 64);
}

TEST(Arena, LimitFailsCleanly) {
  Arena a(100000);
  EXPECT_NE(a.allocate(1000), nullptr);
  EXPECT_EQ(a.allocate(200000), nullptr);
  EXPECT_NE(a.allocate(1000), nullptr);  // still usable
  a.set_limit(10);
  EXPECT_EQ(a.allocate(1 << 20), nullptr);
}

TEST(Arena, SizesNearTheAddressSpaceFailInsteadOfWrapping) {
  Arena a;
  EXPECT_NE(a.allocate(16), nullptr);
  for (size_t size : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 6, SIZE_MAX - 64}) EXPECT_EQ(a.allocate(size), nullptr) << size;
  EXPECT_NE(a.allocate(16), nullptr);
}

TEST(Arena, BlocksStayBelowTwoGiBWhateverIsAsked) {
  Arena a;
  EXPECT_NE(a.allocate(16), nullptr);
  // one allocation cannot have a block of 2 GiB or more, whatever the limit
  for (size_t size : {Arena::max_block_size, size_t{1} << 31, (size_t{1} << 31) + 8, size_t{0xfffffff0}}) {
    EXPECT_EQ(a.allocate(size), nullptr) << size;
  }
  EXPECT_NE(a.allocate(16), nullptr);
}

TEST(Arena, RewindDropsLaterBlocks) {
  Arena a;
  a.allocate(16);
  const auto cp = a.checkpoint();
  const size_t reserved = a.reserved_bytes();
  uint8_t* next = a.allocate(8);
  a.allocate(1 << 22);
  a.rewind(cp);
  EXPECT_EQ(a.reserved_bytes(), reserved);
  EXPECT_EQ(a.allocate(8), next);
}
