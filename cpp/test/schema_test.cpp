#include "hppproto/schema.hpp"

#include <gtest/gtest.h>

#include "test_schemas.hpp"

using namespace hppproto;
using namespace hppproto::test;

namespace {
bool loads(const std::vector<uint8_t>& table, Status& st) {
  Schema s;
  return s.load(table.data(), table.size(), st);
}

std::vector<uint8_t> simple_table() { return schemas::simple.table; }

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
  const auto& t = schemas::sparse.table;
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

  EXPECT_FALSE(loads(schemas::noSuchMessage.table, st));
  EXPECT_FALSE(loads(schemas::noSuchEnum.table, st));
  EXPECT_FALSE(loads(schemas::requiredWithoutPresence.table, st));
}

TEST(Schema, ChecksEnumsAndMapEntries) {
  Status st;
  EXPECT_TRUE(loads(schemas::twoValues.table, st));
  auto unsorted = schemas::twoValues.table;  // header, then the closed enum: count, 1, 3
  set_word(unsorted, 5, 3);
  set_word(unsorted, 6, 1);
  EXPECT_FALSE(loads(unsorted, st));

  EXPECT_TRUE(loads(schemas::map.table, st));
  EXPECT_FALSE(loads(schemas::mapDoubleKey.table, st));
  EXPECT_FALSE(loads(schemas::mapThreeFields.table, st));
}

TEST(Schema, AllowsOneofMembersToShareASlotAndRecursion) {
  Status st;
  EXPECT_TRUE(loads(schemas::oneofAndRecursion.table, st));
}

TEST(Schema, RejectsOneofMembersAtDifferentOffsets) {
  auto t = schemas::oneofInt64s.table;
  set_word(t, field0 + 5 + 2, 40);  // move the second member's value slot away from the first
  std::vector<uint8_t> grown = t;
  set_word(grown, msg0, 48);
  Status st;
  EXPECT_FALSE(loads(grown, st));
}

TEST(Schema, MessageSetsHoldOnlySingularMessageExtensions) {
  Status st;
  EXPECT_TRUE(loads(schemas::messageSet.table, st));
  EXPECT_FALSE(loads(schemas::messageSetScalar.table, st));
  EXPECT_FALSE(loads(schemas::messageSetLowNumber.table, st));

  auto unknown_flag = simple_table();
  set_word(unknown_flag, msg0 + 1, 2);
  EXPECT_FALSE(loads(unknown_flag, st));
  EXPECT_EQ(st.code, Error::invalid_schema);
}
