#include "hppproto/decoder.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_schemas.hpp"

using namespace hppproto;
using namespace hppproto::test;

namespace {

class DecoderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table = schemas::decoder.table;
    ASSERT_TRUE(schema.load(table.data(), table.size(), status));
  }

  const MessageSpec& spec(uint32_t i) { return schemas::decoder.messages[i]; }
  const FieldSpec& field(uint32_t number) { return spec(0).field(number); }

  // Copies the input into the arena (as the JS runtime does) and decodes it.
  RecordPtr decode(const Wire& w, uint32_t message = 0) {
    uint8_t* input = arena.allocate(w.bytes.size() + 1);
    if (!w.bytes.empty()) std::memcpy(input, w.bytes.data(), w.bytes.size());
    return Decoder(schema, arena, status, limits).decode(message, input, w.bytes.size());
  }

  Error decode_error(const Wire& w, uint32_t message = 0) {
    EXPECT_EQ(decode(w, message), nullptr);
    return status.code;
  }

  template <class T>
  std::vector<T> array(const uint8_t* rec, uint32_t number) {
    const auto a = load<ArraySlot>(rec, field(number).offset);
    const T* d = static_cast<const T*>(a.data);
    return std::vector<T>(d, d + a.size);
  }

  std::vector<uint8_t> table;
  Schema schema;
  Arena arena;
  Status status;
  Limits limits;
};

TEST_F(DecoderTest, DecodesEveryScalarType) {
  Wire w;
  w.field_varint(1, static_cast<uint64_t>(-5))  // negative int32: 10 bytes
      .field_varint(2, static_cast<uint64_t>(INT64_MIN))
      .field_varint(3, 0xffffffffu)
      .field_varint(4, UINT64_MAX)
      .field_varint(5, zigzag_encode32(-123))
      .field_varint(6, zigzag_encode64(INT64_MIN))
      .field_fixed32(7, 0xdeadbeef)
      .field_fixed64(8, 0x0123456789abcdefull)
      .field_fixed32(9, static_cast<uint32_t>(-7))
      .field_fixed64(10, static_cast<uint64_t>(-8))
      .field_fixed32(11, bit_cast<uint32_t>(1.5f))
      .field_fixed64(12, bit_cast<uint64_t>(-0.0))
      .field_varint(13, 2)  // any non-zero is true
      .field_bytes(14, "h\xc3\xa9llo")
      .field_bytes(15, std::string("\xff\x00\x01", 3))
      .field_varint(16, 2)
      .field_varint(17, 99);  // open enum keeps unknown values
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr) << static_cast<int>(status.code);
  EXPECT_EQ(load<int32_t>(r, field(1).offset), -5);
  EXPECT_EQ(load<int64_t>(r, field(2).offset), INT64_MIN);
  EXPECT_EQ(load<uint32_t>(r, field(3).offset), 0xffffffffu);
  EXPECT_EQ(load<uint64_t>(r, field(4).offset), UINT64_MAX);
  EXPECT_EQ(load<int32_t>(r, field(5).offset), -123);
  EXPECT_EQ(load<int64_t>(r, field(6).offset), INT64_MIN);
  EXPECT_EQ(load<uint32_t>(r, field(7).offset), 0xdeadbeefu);
  EXPECT_EQ(load<uint64_t>(r, field(8).offset), 0x0123456789abcdefull);
  EXPECT_EQ(load<int32_t>(r, field(9).offset), -7);
  EXPECT_EQ(load<int64_t>(r, field(10).offset), -8);
  EXPECT_EQ(load<float>(r, field(11).offset), 1.5f);
  EXPECT_TRUE(std::signbit(load<double>(r, field(12).offset)));
  EXPECT_EQ(load<uint8_t>(r, field(13).offset), 1);
  EXPECT_EQ(bytes_at(r, field(14).offset), "h\xc3\xa9llo");
  EXPECT_EQ(bytes_at(r, field(15).offset), std::string("\xff\x00\x01", 3));
  EXPECT_EQ(load<int32_t>(r, field(16).offset), 2);
  EXPECT_EQ(load<int32_t>(r, field(17).offset), 99);
  EXPECT_EQ(load<ArraySlot>(r, unknown_fields_offset).size, 0u);
}

TEST_F(DecoderTest, LastValueWinsAndInt32TruncatesWideVarints) {
  Wire w;
  w.field_varint(1, 1).field_varint(1, 0x1'0000'0007ull).field_bytes(14, "a").field_bytes(14, "b");
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(load<int32_t>(r, field(1).offset), 7);
  EXPECT_EQ(bytes_at(r, field(14).offset), "b");
}

TEST_F(DecoderTest, NestedMessagesMergeAndGroupsDecode) {
  Wire a, b, g;
  a.field_varint(1, 10);
  b.field_bytes(2, "x");
  g.field_varint(1, 42);
  Wire w;
  w.field_message(18, a).field_message(18, b);
  w.tag(19, WireType::sgroup).append(g).tag(19, WireType::egroup);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr) << static_cast<int>(status.code);
  EXPECT_TRUE(has_bit(r, field(18)));
  const uint8_t* sub = load<RecordPtr>(r, field(18).offset);
  EXPECT_EQ(load<int32_t>(sub, spec(1).field(1).offset), 10);  // merged, not replaced
  EXPECT_EQ(bytes_at(sub, spec(1).field(2).offset), "x");
  const uint8_t* grp = load<RecordPtr>(r, field(19).offset);
  EXPECT_EQ(load<int32_t>(grp, spec(2).field(1).offset), 42);
  EXPECT_FALSE(has_bit(r, field(29)));
}

TEST_F(DecoderTest, RepeatedFieldsAcceptPackedAndExpandedForms) {
  Wire packed;
  packed.varint(1).varint(static_cast<uint64_t>(-1)).varint(300);
  Wire w;
  w.field_varint(20, 7);
  w.tag(20, WireType::len).varint(packed.bytes.size()).append(packed);
  w.field_varint(20, 8);
  w.tag(21, WireType::len).varint(16).fixed64(bit_cast<uint64_t>(1.25)).fixed64(bit_cast<uint64_t>(-2.5));
  w.field_fixed64(21, bit_cast<uint64_t>(9.0));
  w.field_bytes(22, "a").field_bytes(22, "").field_bytes(22, "ccc");
  w.tag(24, WireType::len).varint(2).varint(zigzag_encode64(-1)).varint(zigzag_encode64(1));
  w.field_varint(30, 1).field_varint(30, 0);
  w.tag(31, WireType::sgroup).field_varint(1, 5).tag(31, WireType::egroup);
  w.tag(31, WireType::sgroup).tag(31, WireType::egroup);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr) << static_cast<int>(status.code);
  EXPECT_EQ(array<int32_t>(r, 20), (std::vector<int32_t>{7, 1, -1, 300, 8}));
  EXPECT_EQ(array<double>(r, 21), (std::vector<double>{1.25, -2.5, 9.0}));
  const auto strings = array<BytesSlot>(r, 22);
  ASSERT_EQ(strings.size(), 3u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(strings[2].data), strings[2].size), "ccc");
  EXPECT_EQ(strings[1].size, 0u);
  EXPECT_EQ(array<int64_t>(r, 24), (std::vector<int64_t>{-1, 1}));
  EXPECT_EQ(array<uint8_t>(r, 30), (std::vector<uint8_t>{1, 0}));
  const auto groups = array<RecordPtr>(r, 31);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(load<int32_t>(groups[0], spec(2).field(1).offset), 5);
  EXPECT_EQ(load<int32_t>(groups[1], spec(2).field(1).offset), 0);
}

TEST_F(DecoderTest, AlignedPackedRunsAreBorrowedAndCopiedOnAppend) {
  // the arena copy of the input is 8-aligned; 5 bytes of field 15 and a 3-byte header put the run at 8
  Wire aligned;
  aligned.field_bytes(15, "abc");     // 5 bytes
  aligned.raw({0xaa, 0x01}).varint(16);  // 3 bytes -> run at offset 8
  aligned.fixed64(bit_cast<uint64_t>(1.0)).fixed64(bit_cast<uint64_t>(2.0));
  const uint8_t* r = decode(aligned);
  ASSERT_NE(r, nullptr);
  auto a = load<ArraySlot>(r, field(21).offset);
  EXPECT_EQ(a.capacity, 0u) << "an aligned run should be used in place";
  EXPECT_EQ(array<double>(r, 21), (std::vector<double>{1.0, 2.0}));

  aligned.field_fixed64(21, bit_cast<uint64_t>(3.0));
  r = decode(aligned);
  ASSERT_NE(r, nullptr);
  a = load<ArraySlot>(r, field(21).offset);
  EXPECT_GE(a.capacity, 3u);
  EXPECT_EQ(array<double>(r, 21), (std::vector<double>{1.0, 2.0, 3.0}));
}

TEST_F(DecoderTest, UnknownFieldsAreKeptAsByteRanges) {
  Wire w;
  w.field_varint(1, 1).field_varint(100, 5).field_fixed32(101, 1).field_bytes(102, "zz");
  w.field_varint(2, 2);
  w.tag(103, WireType::sgroup).field_varint(1, 1).tag(103, WireType::egroup);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr);
  const auto list = load<ArraySlot>(r, unknown_fields_offset);
  ASSERT_EQ(list.size, 2u);  // 100..102 are adjacent and merged; 103 stands apart
  const auto* ranges = static_cast<const BytesSlot*>(list.data);
  Wire expect_first;
  expect_first.field_varint(100, 5).field_fixed32(101, 1).field_bytes(102, "zz");
  EXPECT_EQ(std::vector<uint8_t>(ranges[0].data, ranges[0].data + ranges[0].size), expect_first.bytes);
  Wire expect_second;
  expect_second.tag(103, WireType::sgroup).field_varint(1, 1).tag(103, WireType::egroup);
  EXPECT_EQ(std::vector<uint8_t>(ranges[1].data, ranges[1].data + ranges[1].size), expect_second.bytes);
}

TEST_F(DecoderTest, ClosedEnumValuesOutsideTheEnumBecomeUnknownFields) {
  Wire w;
  w.field_varint(16, 1).field_varint(16, 7);  // 7 is not in the enum: the field keeps 1
  w.tag(25, WireType::len).varint(3).varint(0).varint(5).varint(2);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(load<int32_t>(r, field(16).offset), 1);
  EXPECT_EQ(array<int32_t>(r, 25), (std::vector<int32_t>{0, 2}));
  const auto list = load<ArraySlot>(r, unknown_fields_offset);
  const auto* ranges = static_cast<const BytesSlot*>(list.data);
  std::vector<uint8_t> unknown;
  for (uint32_t i = 0; i < list.size; ++i) unknown.insert(unknown.end(), ranges[i].data, ranges[i].data + ranges[i].size);
  Wire expect;
  expect.field_varint(16, 7).field_varint(25, 5);
  EXPECT_EQ(unknown, expect.bytes);
}

TEST_F(DecoderTest, OneofMembersReplaceEachOther) {
  Wire sub;
  sub.field_varint(1, 3);
  Wire w;
  w.field_message(28, sub).field_bytes(27, "s");
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(load<uint32_t>(r, field(27).presence), 27u);
  EXPECT_EQ(bytes_at(r, field(27).offset), "s");
  // back to the message member: it starts fresh rather than merging into string bytes
  w.field_message(28, sub);
  r = decode(w);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(load<uint32_t>(r, field(28).presence), 28u);
  const uint8_t* m = load<RecordPtr>(r, field(28).offset);
  EXPECT_EQ(load<int32_t>(m, spec(1).field(1).offset), 3);
}

TEST_F(DecoderTest, MapEntriesAreRecords) {
  Wire e1, e2, e3;
  e1.field_bytes(1, "a").field_varint(2, 1);
  e2.field_varint(2, 5);  // key missing: the default ""
  e3.field_bytes(1, "a").field_varint(2, 9);
  Wire w;
  w.field_message(26, e1).field_message(26, e2).field_message(26, e3);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr);
  const auto entries = array<RecordPtr>(r, 26);
  ASSERT_EQ(entries.size(), 3u);  // duplicates are kept in order; readers apply last-wins
  EXPECT_EQ(bytes_at(entries[2], spec(3).field(1).offset), "a");
  EXPECT_EQ(load<int32_t>(entries[2], spec(3).field(2).offset), 9);
  EXPECT_EQ(load<BytesSlot>(entries[1], spec(3).field(1).offset).size, 0u);
}

TEST_F(DecoderTest, RequiredFields) {
  Wire ok;
  ok.field_varint(1, 0);
  EXPECT_NE(decode(ok, 4), nullptr);
  Wire missing;
  missing.field_varint(2, 1);
  EXPECT_EQ(decode_error(missing, 4), Error::missing_required);
  EXPECT_EQ(status.detail, 1u);
  ASSERT_EQ(status.path_size, 1u);
  EXPECT_EQ(status.path[0].field_number, 1u);
}

// Found by the decode fuzzer: an entry of a map whose values have required fields, without its
// value, decoded fine and then could not be encoded.
TEST(DecoderMaps, AnEntryWithoutItsValueLacksTheValuesRequiredFields) {
  const auto& table = schemas::mapOfRequired.table;
  constexpr uint32_t top = 2;
  Schema schema;
  Status status;
  ASSERT_TRUE(schema.load(table.data(), table.size(), status));
  Arena arena;
  const Limits limits;
  auto decode = [&](const Wire& w) {
    uint8_t* input = arena.allocate(w.bytes.size() + 1);
    std::memcpy(input, w.bytes.data(), w.bytes.size());
    return Decoder(schema, arena, status, limits).decode(top, input, w.bytes.size());
  };
  Wire no_value;
  no_value.tag(1, WireType::len).varint(2).field_varint(1, 7);
  EXPECT_EQ(decode(no_value), nullptr);
  EXPECT_EQ(status.code, Error::missing_required);
  ASSERT_EQ(status.path_size, 2u);  // map_field[0] of the top message, then the value's field 1
  EXPECT_EQ(status.path[0].field_number, 1u);
  EXPECT_EQ(status.path[1].field_number, 1u);
  Wire with_value;
  Wire value_body;
  value_body.field_varint(1, 3);
  Wire entry_body;
  entry_body.field_varint(1, 7).field_message(2, value_body);
  with_value.field_message(1, entry_body);
  EXPECT_NE(decode(with_value), nullptr);
}

// allow_partial: the top-level message may lack its required fields (an extension's bytes read
// alone); a message inside it may not.
TEST(DecoderPartial, AllowPartialSparesOnlyTheTopLevelMessage) {
  const auto& table = schemas::mapOfRequired.table;
  Schema schema;
  Status status;
  ASSERT_TRUE(schema.load(table.data(), table.size(), status));
  Arena arena;
  Limits limits;
  limits.allow_partial = 1;
  auto decode = [&](uint32_t message, const Wire& w) {
    uint8_t* input = arena.allocate(w.bytes.size() + 1);
    if (!w.bytes.empty()) std::memcpy(input, w.bytes.data(), w.bytes.size());
    return Decoder(schema, arena, status, limits).decode(message, input, w.bytes.size());
  };
  Wire lacking;  // message 0 without its required field 1
  EXPECT_NE(decode(0, lacking), nullptr);
  Wire inner_lacking;  // message 1 (a map entry) whose value, a message 0, lacks it
  inner_lacking.field_varint(1, 3).field_message(2, Wire{});
  EXPECT_EQ(decode(1, inner_lacking), nullptr);
  EXPECT_EQ(status.code, Error::missing_required);
  limits.allow_partial = 0;
  EXPECT_EQ(decode(0, lacking), nullptr);
}

TEST_F(DecoderTest, MalformedInputGivesCodeOffsetAndPath) {
  {
    Wire w;
    w.field_varint(1, 1).raw({0x10});  // tag for field 2 then nothing
    EXPECT_EQ(decode_error(w), Error::truncated);
    EXPECT_EQ(status.offset, 3u);
  }
  {
    Wire w;
    w.tag(1, WireType::varint).raw({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
    EXPECT_EQ(decode_error(w), Error::varint_overlong);
    EXPECT_EQ(status.offset, 1u);
  }
  {
    Wire w;
    w.raw({0x00, 0x00});
    EXPECT_EQ(decode_error(w), Error::invalid_field_number);
  }
  {
    Wire w;
    w.raw({0x0e, 0x00});  // field 1, wire type 6
    EXPECT_EQ(decode_error(w), Error::invalid_wire_type);
  }
  {
    Wire w;
    w.tag(14, WireType::len).varint(10).raw({'a', 'b'});
    EXPECT_EQ(decode_error(w), Error::length_out_of_bounds);
  }
  {
    Wire w;
    w.field_bytes(14, "\xc3\x28");
    EXPECT_EQ(decode_error(w), Error::invalid_utf8);
    Wire lenient;  // field 29 has no UTF-8 check (proto2 semantics)
    lenient.field_bytes(29, "\xc3\x28");
    EXPECT_NE(decode(lenient), nullptr);
  }
  {
    Wire w;
    w.tag(19, WireType::sgroup).field_varint(1, 1);
    EXPECT_EQ(decode_error(w), Error::unterminated_group);
  }
  {
    Wire w;
    w.tag(19, WireType::sgroup).tag(18, WireType::egroup);
    EXPECT_EQ(decode_error(w), Error::unmatched_end_group);
    Wire top;
    top.tag(5, WireType::egroup);
    EXPECT_EQ(decode_error(top), Error::unmatched_end_group);
  }
  {
    Wire w;
    w.tag(21, WireType::len).varint(7).raw({1, 2, 3, 4, 5, 6, 7});
    EXPECT_EQ(decode_error(w), Error::packed_length);
  }
  {
    Wire w;
    w.tag(20, WireType::len).varint(2).raw({0x01, 0x80});  // run ends inside a varint
    EXPECT_EQ(decode_error(w), Error::truncated);
  }
}

TEST_F(DecoderTest, ErrorPathsNameEveryLevel) {
  Wire bad_leaf;
  bad_leaf.field_bytes(14, "\xff");
  Wire level1;
  level1.field_message(32, bad_leaf);
  Wire w;
  w.field_message(23, Wire{}).field_message(23, Wire{}).field_message(32, level1);
  EXPECT_EQ(decode_error(w), Error::invalid_utf8);
  ASSERT_EQ(status.path_size, 3u);
  EXPECT_EQ(status.path[0].field_number, 32u);
  EXPECT_EQ(status.path[1].field_number, 32u);
  EXPECT_EQ(status.path[2].field_number, 14u);
  EXPECT_EQ(status.path[2].message_index, 0u);

  Wire bad_sub;
  bad_sub.tag(1, WireType::varint).raw({0x80});  // a varint cut short
  Wire r;
  r.field_message(23, Wire{}).field_message(23, bad_sub);
  EXPECT_EQ(decode_error(r), Error::truncated);
  ASSERT_EQ(status.path_size, 2u);
  EXPECT_EQ(status.path[0].field_number, 23u);
  EXPECT_EQ(status.path[0].element_index, 1);
  EXPECT_EQ(status.path[1].message_index, 1u);
}

TEST_F(DecoderTest, KnownFieldsWithAnotherWireTypeAreKeptAsUnknownFields) {
  // as protoc's parser, upb and protobufjs do: int32 as fixed32, a repeated int32 as fixed64, a
  // string as a varint, a message as a varint; the declared fields stay unset
  Wire w;
  w.field_fixed32(1, 5).field_varint(2, 2).tag(20, WireType::fixed64).fixed64(7).field_varint(14, 3).field_varint(23, 1);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(load<int32_t>(r, field(1).offset), 0);
  EXPECT_EQ(load<int64_t>(r, field(2).offset), 2);
  EXPECT_EQ(array<int32_t>(r, 20), std::vector<int32_t>{});
  EXPECT_EQ(load<BytesSlot>(r, field(14).offset).size, 0u);
  const auto list = load<ArraySlot>(r, unknown_fields_offset);
  const auto* ranges = static_cast<const BytesSlot*>(list.data);
  std::vector<uint8_t> unknown;
  for (uint32_t i = 0; i < list.size; ++i) unknown.insert(unknown.end(), ranges[i].data, ranges[i].data + ranges[i].size);
  Wire expect;
  expect.field_fixed32(1, 5).tag(20, WireType::fixed64).fixed64(7).field_varint(14, 3).field_varint(23, 1);
  EXPECT_EQ(unknown, expect.bytes);
}

TEST_F(DecoderTest, DepthLimit) {
  auto nest = [](int levels) {
    Wire w;
    w.field_varint(1, 1);
    for (int i = 0; i < levels; ++i) {
      Wire outer;
      outer.field_message(32, w);
      w = outer;
    }
    return w;
  };
  EXPECT_NE(decode(nest(100)), nullptr);
  EXPECT_EQ(decode_error(nest(101)), Error::depth_limit);
  EXPECT_EQ(status.path_size, Status::max_path);
  EXPECT_EQ(status.path_truncated, 1u);
  limits.max_depth = 5;
  EXPECT_EQ(decode_error(nest(6)), Error::depth_limit);
  EXPECT_NE(decode(nest(5)), nullptr);
  // unknown groups nest too
  Wire groups;
  for (int i = 0; i < 6; ++i) groups.tag(200, WireType::sgroup);
  for (int i = 0; i < 6; ++i) groups.tag(200, WireType::egroup);
  EXPECT_EQ(decode_error(groups), Error::depth_limit);
}

TEST_F(DecoderTest, SizeElementAndArenaLimits) {
  Wire w;
  for (int i = 0; i < 10; ++i) w.field_varint(20, static_cast<uint64_t>(i));
  limits.max_message_size = 5;
  EXPECT_EQ(decode_error(w), Error::message_too_large);
  limits.max_message_size = 1000;
  limits.max_elements = 9;
  EXPECT_EQ(decode_error(w), Error::too_many_elements);
  limits.max_elements = 10;
  EXPECT_NE(decode(w), nullptr);
  // sub-messages arrive one at a time: the limit holds past an array's first capacity (4, then 8)
  Wire subs;
  for (int i = 0; i < 6; ++i) subs.field_message(23, Wire{}.field_varint(1, 1));
  limits.max_elements = 5;
  EXPECT_EQ(decode_error(subs), Error::too_many_elements);
  limits.max_elements = 6;
  EXPECT_NE(decode(subs), nullptr);

  limits = Limits{};
  Arena small(Arena::first_block_size);
  Wire many;
  for (int i = 0; i < 2000; ++i) many.field_message(23, Wire{}.field_varint(1, 1));
  uint8_t* input = small.allocate(many.bytes.size());
  std::memcpy(input, many.bytes.data(), many.bytes.size());
  EXPECT_EQ(Decoder(schema, small, status, limits).decode(0, input, many.bytes.size()), nullptr);
  EXPECT_EQ(status.code, Error::out_of_memory);
}

TEST_F(DecoderTest, FailedDecodeRewindsTheArenaAndTheNextOneWorks) {
  Wire good;
  good.field_varint(1, 1);
  ASSERT_NE(decode(good), nullptr);
  Wire bad;
  for (int i = 0; i < 5000; ++i) bad.field_message(23, Wire{}.field_varint(1, 1));
  bad.raw({0x08});
  const size_t before = arena.reserved_bytes();
  uint8_t* input = arena.allocate(bad.bytes.size());
  std::memcpy(input, bad.bytes.data(), bad.bytes.size());
  const auto cp_cur = arena.allocate(0);
  EXPECT_EQ(Decoder(schema, arena, status, limits).decode(0, input, bad.bytes.size()), nullptr);
  EXPECT_EQ(arena.allocate(0), cp_cur);
  EXPECT_GE(arena.reserved_bytes(), before);
  const uint8_t* r = decode(good);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(load<int32_t>(r, field(1).offset), 1);
}

TEST_F(DecoderTest, DelimitedBatches) {
  Wire m1, m2;
  m1.field_varint(1, 11);
  m2.field_varint(1, 22);
  Wire batch;
  batch.varint(m1.bytes.size()).append(m1).varint(0).varint(m2.bytes.size()).append(m2);
  ArraySlot out{};
  Decoder d(schema, arena, status, limits);
  ASSERT_TRUE(d.decode_delimited(0, batch.bytes.data(), batch.bytes.size(), out));
  ASSERT_EQ(out.size, 3u);
  const auto* recs = static_cast<RecordPtr*>(out.data);
  EXPECT_EQ(load<int32_t>(recs[0], field(1).offset), 11);
  EXPECT_EQ(load<int32_t>(recs[1], field(1).offset), 0);
  EXPECT_EQ(load<int32_t>(recs[2], field(1).offset), 22);

  Wire broken = batch;
  broken.varint(5).raw({0x08});
  EXPECT_FALSE(d.decode_delimited(0, broken.bytes.data(), broken.bytes.size(), out));
  EXPECT_EQ(status.code, Error::length_out_of_bounds);
  ASSERT_EQ(status.path_size, 1u);
  EXPECT_EQ(status.path[0].field_number, 0u);
  EXPECT_EQ(status.path[0].element_index, 3);

  Wire bad_third = batch;
  bad_third.varint(1).raw({0x00});
  EXPECT_FALSE(d.decode_delimited(0, bad_third.bytes.data(), bad_third.bytes.size(), out));
  EXPECT_EQ(status.code, Error::invalid_field_number);
  EXPECT_EQ(status.path[0].element_index, 3);
}

}  // namespace

TEST_F(DecoderTest, PackedVarintRunsDecodeEveryFormAndRejectOverlongValues) {
  Wire ints, sints, bools;
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{INT32_MIN}, int64_t{INT32_MAX}, int64_t{1} << 40}) ints.varint(static_cast<uint64_t>(v));
  for (int64_t v : {int64_t{0}, int64_t{-1}, INT64_MIN, INT64_MAX}) sints.varint(zigzag_encode64(v));
  bools.varint(0).varint(1).varint(300);
  Wire w;
  w.tag(20, WireType::len).varint(ints.bytes.size()).append(ints);
  w.tag(24, WireType::len).varint(sints.bytes.size()).append(sints);
  w.tag(30, WireType::len).varint(bools.bytes.size()).append(bools);
  const uint8_t* r = decode(w);
  ASSERT_NE(r, nullptr) << static_cast<int>(status.code);
  // int32 keeps the low 32 bits of wider values
  EXPECT_EQ(array<int32_t>(r, 20), (std::vector<int32_t>{0, -1, INT32_MIN, INT32_MAX, 0}));
  EXPECT_EQ(array<int64_t>(r, 24), (std::vector<int64_t>{0, -1, INT64_MIN, INT64_MAX}));
  EXPECT_EQ(array<uint8_t>(r, 30), (std::vector<uint8_t>{0, 1, 1}));

  Wire bad;
  bad.varint(5).raw({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  Wire v;
  v.tag(20, WireType::len).varint(bad.bytes.size()).append(bad);
  EXPECT_EQ(decode_error(v), Error::varint_overlong);
  EXPECT_EQ(status.offset, 4u);  // a two-byte tag, the length, the value 5, then the bad varint
}
