#include "hppproto/wire.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace hppproto;

namespace {
VarintResult parse(std::vector<uint8_t> bytes, uint64_t& out, size_t& used) {
  const uint8_t* p = bytes.data();
  const auto r = read_varint(p, bytes.data() + bytes.size(), out);
  used = static_cast<size_t>(p - bytes.data());
  return r;
}
}  // namespace

TEST(Varint, DecodesKnownEncodings) {
  uint64_t v;
  size_t used;
  EXPECT_EQ(parse({0x00}, v, used), VarintResult::ok);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(parse({0x96, 0x01}, v, used), VarintResult::ok);  // 150, the spec's example
  EXPECT_EQ(v, 150u);
  EXPECT_EQ(used, 2u);
  // -1 as int32 is ten bytes
  EXPECT_EQ(parse({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, v, used), VarintResult::ok);
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_EQ(used, 10u);
}

TEST(Varint, AcceptsNonMinimalEncodings) {
  uint64_t v;
  size_t used;
  EXPECT_EQ(parse({0x81, 0x80, 0x80, 0x00}, v, used), VarintResult::ok);
  EXPECT_EQ(v, 1u);
  EXPECT_EQ(used, 4u);
}

TEST(Varint, RejectsTruncationAndOverlong) {
  uint64_t v;
  size_t used;
  EXPECT_EQ(parse({}, v, used), VarintResult::truncated);
  EXPECT_EQ(parse({0x80}, v, used), VarintResult::truncated);
  EXPECT_EQ(parse({0xff, 0xff, 0xff}, v, used), VarintResult::truncated);
  EXPECT_EQ(used, 0u);  // the cursor does not move on failure
  // 11 bytes
  EXPECT_EQ(parse({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, v, used),
            VarintResult::overlong);
  // 10th byte carries bits past 64
  EXPECT_EQ(parse({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, v, used),
            VarintResult::overlong);
}

TEST(Varint, RoundTripsThroughWriter) {
  for (uint64_t v : std::initializer_list<uint64_t>{0, 1, 127, 128, 16383, 16384, 0xffffffff, 1ull << 63, UINT64_MAX}) {
    uint8_t buf[10];
    uint8_t* e = write_varint(buf, v);
    EXPECT_EQ(static_cast<size_t>(e - buf), varint_size(v));
    const uint8_t* p = buf;
    uint64_t out;
    ASSERT_EQ(read_varint(p, e, out), VarintResult::ok);
    EXPECT_EQ(out, v);
    EXPECT_EQ(p, e);
  }
}

TEST(Varint, SizeAtEveryBitWidthMatchesTheWriter) {
  for (int bits = 0; bits < 64; ++bits) {
    for (uint64_t v : {(uint64_t{1} << bits) - 1, uint64_t{1} << bits}) {
      uint8_t buf[10];
      EXPECT_EQ(static_cast<size_t>(write_varint(buf, v) - buf), varint_size(v)) << v;
    }
  }
  EXPECT_EQ(varint_size(UINT64_MAX), 10u);
}

TEST(Tag, LimitsToFiveBytesAnd32Bits) {
  const uint8_t ok[] = {0xf8, 0xff, 0xff, 0xff, 0x0f};  // field 2^29-1, wire type 0
  const uint8_t* p = ok;
  uint32_t tag;
  ASSERT_EQ(read_tag(p, ok + 5, tag), VarintResult::ok);
  EXPECT_EQ(tag >> 3, max_field_number);
  const uint8_t big[] = {0xff, 0xff, 0xff, 0xff, 0x1f};
  p = big;
  EXPECT_EQ(read_tag(p, big + 5, tag), VarintResult::overlong);
  const uint8_t six[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
  p = six;
  EXPECT_EQ(read_tag(p, six + 6, tag), VarintResult::overlong);
}

TEST(ZigZag, MatchesTheSpecTable) {
  EXPECT_EQ(zigzag_encode32(0), 0u);
  EXPECT_EQ(zigzag_encode32(-1), 1u);
  EXPECT_EQ(zigzag_encode32(1), 2u);
  EXPECT_EQ(zigzag_encode32(-2), 3u);
  EXPECT_EQ(zigzag_encode32(INT32_MAX), 0xfffffffeu);
  EXPECT_EQ(zigzag_encode32(INT32_MIN), 0xffffffffu);
  EXPECT_EQ(zigzag_encode64(INT64_MIN), UINT64_MAX);
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{5}, INT64_MIN, INT64_MAX}) {
    EXPECT_EQ(static_cast<int64_t>(zigzag_decode64(zigzag_encode64(v))), v);
  }
  for (int32_t v : {0, -1, 77, INT32_MIN, INT32_MAX}) {
    EXPECT_EQ(static_cast<int32_t>(zigzag_decode32(zigzag_encode32(v))), v);
  }
}

TEST(Fixed, LoadsLittleEndian) {
  const uint8_t b[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  EXPECT_EQ(load_fixed32(b), 0x04030201u);
  EXPECT_EQ(load_fixed64(b), 0x0807060504030201ull);
  EXPECT_EQ(bit_cast<double>(uint64_t{0x3ff0000000000000}), 1.0);
}

TEST(Varint, CountsPackedRuns) {
  const uint8_t run[] = {0x01, 0x96, 0x01, 0xff, 0xff, 0x03, 0x00};
  EXPECT_EQ(count_varints(run, run + sizeof run), 4u);
}

TEST(Varint, TerminatedReaderAgreesWithTheCheckedOne) {
  // every length from 1 to 10 bytes, edge values of each, and non-minimal forms
  std::vector<std::vector<uint8_t>> encodings;
  for (unsigned bits = 0; bits <= 64; ++bits) {
    for (uint64_t v : {bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1, bits == 64 ? 0 : uint64_t{1} << bits}) {
      uint8_t buf[10];
      encodings.emplace_back(buf, write_varint(buf, v));
    }
  }
  encodings.push_back({0x81, 0x80, 0x80, 0x00});
  encodings.push_back({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00});
  for (const auto& e : encodings) {
    uint64_t want, got;
    const uint8_t* p = e.data();
    ASSERT_EQ(read_varint(p, e.data() + e.size(), want), VarintResult::ok);
    const uint8_t* q = e.data();
    ASSERT_TRUE(read_terminated_varint(q, got));
    EXPECT_EQ(got, want);
    EXPECT_EQ(q, p);
  }
  const std::vector<uint8_t> eleven = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  const std::vector<uint8_t> past64 = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  uint64_t v;
  const uint8_t* p = eleven.data();
  EXPECT_FALSE(read_terminated_varint(p, v));
  p = past64.data();
  EXPECT_FALSE(read_terminated_varint(p, v));
}

TEST(Varint, CountsLongRunsEightBytesAtATime) {
  std::vector<uint8_t> run;
  for (uint64_t v = 0; v < 3000; ++v) {
    uint8_t buf[10];
    run.insert(run.end(), buf, write_varint(buf, v * v * v * 977));
  }
  for (size_t len : {size_t{0}, size_t{7}, size_t{8}, size_t{9}, size_t{63}, size_t{64}, run.size()}) {
    size_t want = 0;
    for (size_t i = 0; i < len; ++i) want += run[i] < 0x80;
    EXPECT_EQ(count_varints(run.data(), run.data() + len), want) << len;
  }
}

TEST(Wire, ShortVarintsInlineAndTheRestAsReadVarint) {
  const auto read = [](std::vector<uint8_t> bytes, uint64_t& v, size_t& used) {
    const uint8_t* p = bytes.data();
    const auto r = hppproto::read_short_varint(p, bytes.data() + bytes.size(), v);
    used = static_cast<size_t>(p - bytes.data());
    return r;
  };
  uint64_t v = 0;
  size_t used = 0;
  EXPECT_EQ(read({0x05, 0xff}, v, used), hppproto::VarintResult::ok);
  EXPECT_EQ(v, 5u);
  EXPECT_EQ(used, 1u);
  EXPECT_EQ(read({0xac, 0x02}, v, used), hppproto::VarintResult::ok);
  EXPECT_EQ(v, 300u);
  EXPECT_EQ(used, 2u);
  EXPECT_EQ(read({0x80, 0x80, 0x01}, v, used), hppproto::VarintResult::ok);
  EXPECT_EQ(v, 16384u);
  EXPECT_EQ(used, 3u);
  EXPECT_EQ(read({0xac}, v, used), hppproto::VarintResult::truncated);
  EXPECT_EQ(used, 0u);
  EXPECT_EQ(read({}, v, used), hppproto::VarintResult::truncated);
  EXPECT_EQ(read({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, v, used), hppproto::VarintResult::overlong);
  EXPECT_EQ(used, 0u);
}

TEST(Tag, ShortTagsInlineAndTheRestAsReadTag) {
  const auto read = [](std::vector<uint8_t> bytes, uint32_t& v) {
    const uint8_t* p = bytes.data();
    const auto r = hppproto::read_short_tag(p, bytes.data() + bytes.size(), v);
    return std::make_pair(r, static_cast<size_t>(p - bytes.data()));
  };
  uint32_t v = 0;
  EXPECT_EQ(read({0x08}, v), std::make_pair(hppproto::VarintResult::ok, size_t{1}));
  EXPECT_EQ(v, 8u);
  EXPECT_EQ(read({0x82, 0x01}, v), std::make_pair(hppproto::VarintResult::ok, size_t{2}));
  EXPECT_EQ(v, 130u);
  EXPECT_EQ(read({0x80, 0x80, 0x80, 0x80, 0x01}, v), std::make_pair(hppproto::VarintResult::ok, size_t{5}));
  EXPECT_EQ(v, 1u << 28);
  EXPECT_EQ(read({0x80, 0x80, 0x80, 0x80, 0x10}, v).first, hppproto::VarintResult::overlong);  // past 32 bits
  EXPECT_EQ(read({0x82}, v), std::make_pair(hppproto::VarintResult::truncated, size_t{0}));
}
