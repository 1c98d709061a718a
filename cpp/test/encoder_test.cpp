#include "hppproto/encoder.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_schemas.hpp"

using namespace hppproto;
using namespace hppproto::test;

namespace {

class EncoderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table = schemas::encoder.table;
    ASSERT_TRUE(schema.load(table.data(), table.size(), status));
  }

  const MessageSpec& spec(uint32_t i) { return schemas::encoder.messages[i]; }
  const FieldSpec& field(uint32_t number) { return spec(0).field(number); }

  RecordPtr decode(const Wire& w, uint32_t message = 0) {
    uint8_t* input = arena.allocate(w.bytes.size() + 1);
    if (!w.bytes.empty()) std::memcpy(input, w.bytes.data(), w.bytes.size());
    return Decoder(schema, arena, status, limits).decode(message, input, w.bytes.size());
  }

  // Encodes the record; empty optional-like result on failure (status tells why).
  bool encode(const uint8_t* rec, std::vector<uint8_t>& out, uint32_t message = 0) {
    Encoder e(schema, status, limits, sizes);
    size_t size;
    if (!e.measure(message, rec, size)) return false;
    out.assign(size + 16, 0xee);  // guard bytes past the end must stay untouched
    const uint8_t* end = e.write(message, rec, out.data());
    EXPECT_EQ(end, out.data() + size);
    for (size_t i = size; i < out.size(); ++i) EXPECT_EQ(out[i], 0xee);
    out.resize(size);
    return true;
  }

  std::vector<uint8_t> round_trip(const Wire& w, uint32_t message = 0) {
    const uint8_t* r = decode(w, message);
    EXPECT_NE(r, nullptr);
    std::vector<uint8_t> out;
    EXPECT_TRUE(r && encode(r, out, message));
    return out;
  }

  uint8_t* record(uint32_t message) { return arena.allocate_zeroed(spec(message).record_size); }
  static void set_bit(uint8_t* rec, const FieldSpec& f) {
    rec[f.presence >> 3] = static_cast<uint8_t>(rec[f.presence >> 3] | (1u << (f.presence & 7)));
  }

  std::vector<uint8_t> table;
  Schema schema;
  Arena arena;
  Status status;
  Limits limits;
  ScratchBuffer<uint32_t> sizes;
};

TEST_F(EncoderTest, CanonicalInputRoundTripsByteForByte) {
  Wire sub;
  sub.field_varint(1, 150).field_bytes(2, "inner");
  Wire group_body;
  group_body.field_varint(1, 7);
  Wire entry;
  entry.field_bytes(1, "k").field_varint(2, 3);
  Wire w;
  w.field_varint(1, static_cast<uint64_t>(-5))  // negative int32: ten bytes
      .field_varint(2, static_cast<uint64_t>(-1)).field_varint(3, 0xffffffffu).field_varint(4, ~0ull)
      .field_varint(5, zigzag_encode32(-3)).field_varint(6, zigzag_encode64(-4))
      .field_fixed32(7, 9).field_fixed64(8, 10).field_fixed32(9, static_cast<uint32_t>(-11))
      .field_fixed64(10, static_cast<uint64_t>(-12)).field_fixed32(11, 0x3fc00000u)
      .field_fixed64(12, 0x7ff8000000000001ull)  // a NaN payload survives
      .field_varint(13, 1).field_bytes(14, "héllo").field_bytes(15, std::string("\0\1", 2))
      .field_varint(16, 2).field_varint(17, 99).field_message(18, sub);
  w.tag(19, WireType::sgroup).append(group_body).tag(19, WireType::egroup);
  w.field_varint(20, 1).field_varint(20, static_cast<uint64_t>(-1));
  w.tag(21, WireType::len).varint(16).fixed64(0x3ff0000000000000ull).fixed64(0x8000000000000000ull);
  w.field_bytes(22, "a").field_bytes(22, "").field_message(23, sub).field_message(23, Wire{});
  w.tag(24, WireType::len).varint(2).varint(zigzag_encode64(-1)).varint(zigzag_encode64(1));
  w.tag(25, WireType::len).varint(2).varint(0).varint(2);
  w.field_message(26, entry);
  w.field_bytes(27, "oneof");
  w.field_bytes(29, "");  // explicit presence: an empty string is still written
  w.tag(30, WireType::len).varint(2).raw({1, 0});
  w.tag(31, WireType::sgroup).append(group_body).tag(31, WireType::egroup);
  w.field_varint(32, 0);
  w.field_fixed64(34, 0x8000000000000000ull);  // -0.0 differs from the zero bit pattern: written
  EXPECT_EQ(round_trip(w), w.bytes);
}

TEST_F(EncoderTest, ImplicitZerosAreOmittedAndNonCanonicalInputIsNormalized) {
  Wire w;
  w.field_varint(1, 0).field_bytes(14, "").field_fixed64(12, 0).field_varint(13, 0);
  EXPECT_TRUE(round_trip(w).empty());

  Wire reordered;  // fields out of order, the same field twice, an expanded packed field
  reordered.field_varint(3, 1).field_varint(1, 2).field_varint(1, 3);
  reordered.field_varint(33, 5).field_varint(33, 6);
  Wire canonical;
  canonical.field_varint(1, 3).field_varint(3, 1);
  canonical.tag(33, WireType::len).varint(2).varint(5).varint(6);
  EXPECT_EQ(round_trip(reordered), canonical.bytes);
}

TEST_F(EncoderTest, UnknownFieldsAndClosedEnumValuesComeLastInInputOrder) {
  Wire w;
  w.field_varint(1, 1).field_varint(100, 5).field_varint(16, 7).field_bytes(102, "zz");
  w.tag(25, WireType::len).varint(2).varint(1).varint(9);
  Wire expect;
  expect.field_varint(1, 1);
  expect.tag(25, WireType::len).varint(1).varint(1);
  expect.field_varint(100, 5).field_varint(16, 7).field_bytes(102, "zz").field_varint(25, 9);
  EXPECT_EQ(round_trip(w), expect.bytes);
}

TEST_F(EncoderTest, RecordsWrittenByHandEncode) {
  // What a builder writes: a oneof message member never filled in, a map entry without a record.
  uint8_t* r = record(0);
  const uint32_t number = 28;
  std::memcpy(r + field(28).presence, &number, 4);
  RecordPtr entries[1] = {nullptr};
  const ArraySlot map{entries, 1, 1};
  std::memcpy(r + field(26).offset, &map, sizeof map);
  std::vector<uint8_t> out;
  ASSERT_TRUE(encode(r, out));
  Wire expect;
  Wire zero_entry;
  zero_entry.field_bytes(1, "").field_varint(2, 0);
  expect.field_message(26, zero_entry).field_message(28, Wire{});
  EXPECT_EQ(out, expect.bytes);
}

TEST_F(EncoderTest, MissingRequiredFieldsFailWithThePath) {
  uint8_t* outer = record(5);
  uint8_t* inner = record(4);
  std::memcpy(outer + spec(5).field(2).offset, &inner, sizeof inner);
  std::vector<uint8_t> out;
  EXPECT_FALSE(encode(outer, out, 5));
  EXPECT_EQ(status.code, Error::missing_required);
  ASSERT_EQ(status.path_size, 2u);
  EXPECT_EQ(status.path[0].field_number, 2u);
  EXPECT_EQ(status.path[1].field_number, 1u);
  set_bit(inner, spec(4).field(1));
  EXPECT_TRUE(encode(outer, out, 5));
}

TEST_F(EncoderTest, AllowPartialSparesOnlyTheTopLevelMessage) {
  limits.allow_partial = 1;
  uint8_t* outer = record(5);
  std::vector<uint8_t> out;
  EXPECT_TRUE(encode(outer, out, 5));  // message 5's own required field unset
  uint8_t* top = record(4);
  uint8_t* inner = record(4);
  std::memcpy(top + spec(4).field(2).offset, &inner, sizeof inner);
  set_bit(top, spec(4).field(2));
  EXPECT_FALSE(encode(top, out, 4));  // the inner message's is still required
  EXPECT_EQ(status.code, Error::missing_required);
}

TEST_F(EncoderTest, DepthAndSizeLimits) {
  // four records, three levels of nesting below the top, through message 4's field 2
  uint8_t* top = record(4);
  uint8_t* cur = top;
  for (int i = 0; i < 4; ++i) {
    set_bit(cur, spec(4).field(1));
    if (i == 3) break;
    uint8_t* next = record(4);
    std::memcpy(cur + spec(4).field(2).offset, &next, sizeof next);
    cur = next;
  }
  std::vector<uint8_t> out;
  limits.max_depth = 2;
  EXPECT_FALSE(encode(top, out, 4));
  EXPECT_EQ(status.code, Error::depth_limit);
  limits.max_depth = 3;
  EXPECT_TRUE(encode(top, out, 4));
  limits.max_message_size = static_cast<uint32_t>(out.size() - 1);
  EXPECT_FALSE(encode(top, out, 4));
  EXPECT_EQ(status.code, Error::message_too_large);
}

TEST_F(EncoderTest, DelimitedRuns) {
  Wire a, b;
  a.field_varint(1, 1);
  b.field_bytes(14, "two");
  RecordPtr recs[2] = {decode(a), decode(b)};
  Encoder e(schema, status, limits, sizes);
  size_t size;
  ASSERT_TRUE(e.measure_delimited(0, recs, 2, size));
  std::vector<uint8_t> out(size);
  EXPECT_EQ(e.write_delimited(0, recs, 2, out.data()), out.data() + size);
  Wire expect;
  expect.varint(a.bytes.size()).append(a).varint(b.bytes.size()).append(b);
  EXPECT_EQ(out, expect.bytes);
}

TEST_F(EncoderTest, LargePackedRunsMatchTheirInput) {
  Wire w;
  Wire run;
  for (int i = -3000; i < 3000; ++i) run.varint(static_cast<uint64_t>(static_cast<int64_t>(i * 977)));
  w.tag(33, WireType::len).varint(run.bytes.size()).append(run);
  EXPECT_EQ(round_trip(w), w.bytes);
}

TEST_F(EncoderTest, MessageSetItemsInAnyFormDecodeAndEncodeAsItems) {
  constexpr uint32_t message_set = 6;
  Wire inner, other;
  inner.field_varint(1, 99);
  other.field_varint(1, 88);
  auto item = [](std::initializer_list<const Wire*> parts) {
    Wire w;
    w.tag(1, WireType::sgroup);
    for (const Wire* part : parts) w.append(*part);
    return w.tag(1, WireType::egroup);
  };
  Wire type_id, message, other_message, unknown_id;
  type_id.field_varint(2, 1547769);
  message.field_message(3, inner);
  other_message.field_message(3, other);
  unknown_id.field_varint(2, 77);
  const Wire canonical = item({&type_id, &message});

  const uint8_t* r = decode(canonical, message_set);
  ASSERT_NE(r, nullptr);
  const RecordPtr sub = load<RecordPtr>(r, spec(message_set).field(1547769).offset);
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(load<int32_t>(sub, spec(2).field(1).offset), 99);
  EXPECT_EQ(round_trip(canonical, message_set), canonical.bytes);
  EXPECT_EQ(round_trip(item({&message, &type_id}), message_set), canonical.bytes);
  Wire submessage_form;
  submessage_form.field_message(1547769, inner);
  EXPECT_EQ(round_trip(submessage_form, message_set), canonical.bytes);
  // the first message of an item counts; an unknown type_id keeps the item whole
  EXPECT_EQ(round_trip(item({&type_id, &message, &other_message}), message_set), canonical.bytes);
  const Wire unknown = item({&unknown_id, &message});
  EXPECT_EQ(round_trip(unknown, message_set), unknown.bytes);

  Wire open;
  open.tag(1, WireType::sgroup).append(type_id);
  EXPECT_EQ(decode(open, message_set), nullptr);
  EXPECT_EQ(status.code, Error::unterminated_group);
  Wire bad_inner;
  bad_inner.tag(1, WireType::sgroup).append(type_id).tag(3, WireType::len).varint(2).raw({0x08, 0x80}).tag(1, WireType::egroup);
  EXPECT_EQ(decode(bad_inner, message_set), nullptr);
  EXPECT_EQ(status.code, Error::truncated);
}

}  // namespace
