#include "hppproto/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

using hppproto::is_valid_utf8;

namespace {
bool valid(const std::string& s) { return is_valid_utf8(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }
}  // namespace

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_TRUE(valid(""));
  EXPECT_TRUE(valid("plain ascii that is longer than eight bytes"));
  EXPECT_TRUE(valid("caf\xc3\xa9"));                 // é
  EXPECT_TRUE(valid("\xe2\x82\xac"));                // €
  EXPECT_TRUE(valid("\xf0\x9f\x98\x80"));            // 😀
  EXPECT_TRUE(valid("\xf4\x8f\xbf\xbf"));            // U+10FFFF
  EXPECT_TRUE(valid("\xed\x9f\xbf"));                // U+D7FF, just below the surrogates
  EXPECT_TRUE(valid(std::string("a\0b", 3)));        // NUL is valid UTF-8
}

TEST(Utf8, RejectsMalformedText) {
  EXPECT_FALSE(valid("\x80"));                       // lone continuation
  EXPECT_FALSE(valid("\xc3"));                       // truncated
  EXPECT_FALSE(valid("abcdefgh\xe2\x82"));           // truncated after an ASCII run
  EXPECT_FALSE(valid("\xc0\xaf"));                   // overlong '/'
  EXPECT_FALSE(valid("\xc1\xbf"));                   // overlong
  EXPECT_FALSE(valid("\xe0\x80\xaf"));               // overlong 3-byte
  EXPECT_FALSE(valid("\xf0\x80\x80\xaf"));           // overlong 4-byte
  EXPECT_FALSE(valid("\xed\xa0\x80"));               // U+D800 surrogate
  EXPECT_FALSE(valid("\xed\xbf\xbf"));               // U+DFFF surrogate
  EXPECT_FALSE(valid("\xf4\x90\x80\x80"));           // U+110000
  EXPECT_FALSE(valid("\xf5\x80\x80\x80"));
  EXPECT_FALSE(valid("\xff"));
  EXPECT_FALSE(valid("\xe2\x28\xa1"));               // bad continuation
}

// The ASCII fast paths test 32 and then 8 bytes at a time: every sequence must be judged the same
// wherever it falls relative to those blocks, and whatever ASCII follows it.
TEST(Utf8, SameVerdictAtEveryOffsetOfLongAsciiRuns) {
  const std::string good[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"};
  const std::string bad[] = {"\x80", "\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "\xe2\x28\xa1"};
  for (size_t before = 0; before < 70; ++before) {
    for (size_t after : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{31}, size_t{40}}) {
      const std::string pre(before, 'a'), post(after, 'z');
      for (const auto& g : good) EXPECT_TRUE(valid(pre + g + post)) << before << " " << after;
      for (const auto& b : bad) {
        // a truncated sequence followed by ASCII is still malformed: the next byte is no continuation
        EXPECT_FALSE(valid(pre + b + post)) << before << " " << after;
      }
    }
  }
}
