#include "hppproto/schema.hpp"

#include <gtest/gtest.h>

#include "table_builder.hpp"

using namespace hppproto;
using namespace hppproto::test;

namespace {
bool loads(const std::vector<uint8_t>& table, Status& st) {
  Schema s;
  return s.load(table.data(), table.size(), st);
}

std::vector<uint8_t> simple_table() {
  TableBuilder b;
  b.add_message({{{1, FieldType::int32}, {2, FieldType::string, Label::explicit_}}});
  return b.build();
}

void set_word(std::vector<uint8_t>& t, size_t word, uint32_t v) {
  for (int i = 0; i < 4; ++i) t[word * 4 + i] = static_cast<uint8_t>(v >> (8 * i));
}

// word positions in simple_table(): 4 header words, then message 0 at word 4
constexpr size_t msg0 = 4;
constexpr size_t field0 = msg0 + 3;
constexpr size_t field1 = field0 + 5;
}  // namespace

TEST(Schema, LoadsAWellFormedTable) {
  Status st;
  Schema s;
  const auto t = simple_table();
  ASSERT_TRUE(s.load(t.data(), t.size(), st));
  EXPECT_EQ(s.message_count(), 1u);
  ASSERT_NE(s.find(s.message(0), 2), nullptr);
  EXPECT_EQ(s.find(s.message(0), 2)->type, FieldType::string);
  EXPECT_EQ(s.find(s.message(0), 3), nullptr);
  EXPECT_EQ(s.find(s.message(0), 0), nullptr);
}

TEST(Schema, FindsSparseFieldNumbers) {
  TableBuilder b;
  b.add_message({{{1, FieldType::int32}, {5000, FieldType::int64}, {max_field_number, FieldType::bool_}}});
  const auto t = b.build();
  Status st;
  Schema s;
  ASSERT_TRUE(s.load(t.data(), t.size(), st));
  EXPECT_EQ(s.find(s.message(0), 5000)->type, FieldType::int64);
  EXPECT_EQ(s.find(s.message(0), max_field_number)->type, FieldType::bool_);
  EXPECT_EQ(s.find(s.message(0), 4999), nullptr);
}

TEST(Schema, RejectsBadHeaderAndTruncation) {
  Status st;
  auto t = simple_table();
  auto bad = t;
  bad[0] ^= 1;
  EXPECT_FALSE(loads(bad, st));
  EXPECT_EQ(st.code, Error::invalid_schema);
  for (size_t cut = 0; cut < t.size(); ++cut) {
    std::vector<uint8_t> part(t.begin(), t.begin() + static_cast<long>(cut));
    EXPECT_FALSE(loads(part, st)) << "cut at " << cut;
  }
  auto longer = t;
  longer.push_back(0);
  EXPECT_FALSE(loads(longer, st));
  auto huge = t;
  set_word(huge, 3, 0x7fffffff);  // message count larger than the table could hold
  EXPECT_FALSE(loads(huge, st));
}

TEST(Schema, RejectsUnsafeLayouts) {
  Status st;
  const auto t = simple_table();
  auto overlap = t;
  set_word(overlap, field1 + 2, 16);  // string slot onto the int32 slot
  set_word(overlap, field0 + 2, 16);
  EXPECT_FALSE(loads(overlap, st));
  auto outside = t;
  set_word(outside, field1 + 2, 1u << 30);
  EXPECT_FALSE(loads(outside, st));
  auto misaligned = t;
  set_word(misaligned, field0 + 2, 13);
  EXPECT_FALSE(loads(misaligned, st));
  auto in_header = t;
  set_word(in_header, field0 + 2, 0);  // over the unknown-field list
  EXPECT_FALSE(loads(in_header, st));
  auto hasbit_outside = t;
  set_word(hasbit_outside, field1 + 3, 1u << 20);
  EXPECT_FALSE(loads(hasbit_outside, st));
  auto bad_size = t;
  set_word(bad_size, msg0, 4);
  EXPECT_FALSE(loads(bad_size, st));
}

TEST(Schema, RejectsBadFieldsAndIndices) {
  Status st;
  const auto t = simple_table();
  auto zero = t;
  set_word(zero, field0, 0);
  EXPECT_FALSE(loads(zero, st));
  auto unsorted = t;
  set_word(unsorted, field1, 1);
  EXPECT_FALSE(loads(unsorted, st));
  auto bad_type = t;
  set_word(bad_type, field0 + 1, 19);
  EXPECT_FALSE(loads(bad_type, st));
  auto bad_label = t;
  set_word(bad_label, field0 + 1, 5 | 7u << 8);
  EXPECT_FALSE(loads(bad_label, st));
  auto bad_flags = t;
  set_word(bad_flags, field0 + 1, 5 | 0x100u << 16);
  EXPECT_FALSE(loads(bad_flags, st));
  auto stray_aux = t;
  set_word(stray_aux, field0 + 4, 0);
  EXPECT_FALSE(loads(stray_aux, st));

  TableBuilder b;
  b.add_message({{{1, FieldType::message, Label::explicit_, 0, 7}}});  // no message 7
  EXPECT_FALSE(loads(b.build(), st));
  TableBuilder e;
  e.add_message({{{1, FieldType::enum_, Label::implicit, field_flags::closed_enum, 0}}});  // no enum 0
  EXPECT_FALSE(loads(e.build(), st));
  TableBuilder r;
  r.add_message({{{1, FieldType::int32, Label::implicit, field_flags::required}}});  // required without presence
  EXPECT_FALSE(loads(r.build(), st));
}

TEST(Schema, ChecksEnumsAndMapEntries) {
  Status st;
  TableBuilder unsorted;
  unsorted.add_enum({3, 1});
  EXPECT_FALSE(loads(unsorted.build(), st));

  TableBuilder good;
  good.add_message({{{1, FieldType::string}, {2, FieldType::int32}}});
  good.add_message({{{1, FieldType::message, Label::map, 0, 0}}});
  EXPECT_TRUE(loads(good.build(), st));

  TableBuilder bad_key;
  bad_key.add_message({{{1, FieldType::double_}, {2, FieldType::int32}}});
  bad_key.add_message({{{1, FieldType::message, Label::map, 0, 0}}});
  EXPECT_FALSE(loads(bad_key.build(), st));

  TableBuilder three;
  three.add_message({{{1, FieldType::string}, {2, FieldType::int32}, {3, FieldType::int32}}});
  three.add_message({{{1, FieldType::message, Label::map, 0, 0}}});
  EXPECT_FALSE(loads(three.build(), st));
}

TEST(Schema, AllowsOneofMembersToShareASlotAndRecursion) {
  TableBuilder b;
  b.add_message({{{1, FieldType::string, Label::implicit, 0, no_aux, 1},
                  {2, FieldType::message, Label::implicit, 0, 0, 1},
                  {3, FieldType::message, Label::repeated, 0, 0}}});
  Status st;
  EXPECT_TRUE(loads(b.build(), st));
}

TEST(Schema, RejectsOneofMembersAtDifferentOffsets) {
  TableBuilder b;
  b.add_message({{{1, FieldType::int64, Label::implicit, 0, no_aux, 1},
                  {2, FieldType::int64, Label::implicit, 0, no_aux, 1}}});
  auto t = b.build();
  set_word(t, field0 + 5 + 2, 40);  // move the second member's value slot away from the first
  std::vector<uint8_t> grown = t;
  set_word(grown, msg0, 48);
  Status st;
  EXPECT_FALSE(loads(grown, st));
}

TEST(Schema, MessageSetsHoldOnlySingularMessageExtensions) {
  Status st;
  TableBuilder b;
  b.add_message({{{1, FieldType::int32}}});
  const uint32_t set = b.add_message({{{4, FieldType::message, Label::explicit_, 0, 0}}});
  b.message(set).message_set = true;
  auto t = b.build();
  EXPECT_TRUE(loads(t, st));

  TableBuilder scalar;
  scalar.add_message({{{4, FieldType::int32, Label::explicit_}}});
  scalar.message(0).message_set = true;
  EXPECT_FALSE(loads(scalar.build(), st));

  TableBuilder low_number;
  low_number.add_message({{{1, FieldType::int32}}});
  low_number.add_message({{{3, FieldType::message, Label::explicit_, 0, 0}}});
  low_number.message(1).message_set = true;
  EXPECT_FALSE(loads(low_number.build(), st));

  auto unknown_flag = simple_table();
  set_word(unknown_flag, msg0 + 1, 2);
  EXPECT_FALSE(loads(unknown_flag, st));
  EXPECT_EQ(st.code, Error::invalid_schema);
}
