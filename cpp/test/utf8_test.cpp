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
