#include "hppproto/map_keys.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

using namespace hppproto;

namespace {
uint32_t fnv1a(uint32_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

// Seven letters spread from j (four-letter blocks of a counter never collide under FNV-1a).
std::string block(uint32_t j) {
  j *= 2654435761u;
  std::string b(7, 'a');
  for (int i = 0; i < 7; ++i, j /= 26) b[i] = static_cast<char>('a' + j % 26);
  return b;
}

// 2^rounds distinct strings with one FNV-1a hash (Joux's multicollision): each round finds two
// blocks that take the hash from one state to the same next state, and every key
// picks one block of each pair. Whatever the table does with the hash, they all land together.
std::vector<std::string> colliding_keys(int rounds) {
  std::vector<std::string> keys{""};
  uint32_t state = 2166136261u;
  for (int r = 0; r < rounds; ++r) {
    std::unordered_map<uint32_t, uint32_t> seen;
    for (uint32_t j = 0;; ++j) {
      const uint32_t next = fnv1a(state, block(j));
      const auto [it, fresh] = seen.emplace(next, j);
      if (fresh) continue;
      std::vector<std::string> longer;
      for (const auto& k : keys) {
        longer.push_back(k + block(it->second));
        longer.push_back(k + block(j));
      }
      keys.swap(longer);
      state = next;
      break;
    }
  }
  return keys;
}

// Entry records holding only a string key at offset 0.
struct StringMap {
  std::vector<BytesSlot> slots;
  std::vector<RecordPtr> recs;
  explicit StringMap(const std::vector<std::string>& keys) : slots(keys.size()) {
    for (size_t i = 0; i < keys.size(); ++i) {
      slots[i] = BytesSlot{reinterpret_cast<const uint8_t*>(keys[i].data()), static_cast<uint32_t>(keys[i].size())};
      recs.push_back(reinterpret_cast<RecordPtr>(&slots[i]));
    }
  }
  bool distinct() const {
    FieldDef key{};
    key.type = FieldType::string;
    std::vector<uint32_t> scratch;
    return distinct_map_keys(key, recs.data(), static_cast<uint32_t>(recs.size()), scratch);
  }
};
}  // namespace

TEST(MapKeys, CraftedCollidingKeysAreDistinctUnlessOneRepeats) {
  const auto keys = colliding_keys(10);
  ASSERT_EQ(keys.size(), 1024u);
  for (const auto& k : keys) ASSERT_EQ(fnv1a(2166136261u, k), fnv1a(2166136261u, keys[0]));
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size());
  EXPECT_TRUE(StringMap(keys).distinct());
  // one key given twice, at either end, in the middle, or next to itself
  for (const auto& [from, to] : std::vector<std::pair<size_t, size_t>>{{0, 1023}, {1023, 0}, {300, 900}, {5, 6}}) {
    auto repeated = keys;
    repeated[to] = keys[from];
    EXPECT_FALSE(StringMap(repeated).distinct()) << from << " -> " << to;
  }
}

TEST(MapKeys, OrdinaryKeysAndTheEmptyKey) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back("key" + std::to_string(i));
  keys.push_back("");
  EXPECT_TRUE(StringMap(keys).distinct());
  keys.push_back("key999");
  EXPECT_FALSE(StringMap(keys).distinct());
  // a missing entry record has the zero key, "" for strings
  const auto three = std::vector<std::string>{"a", "", "b"};  // (StringMap points into its strings)
  StringMap with_missing(three);
  with_missing.recs[1] = nullptr;
  EXPECT_TRUE(with_missing.distinct());
  with_missing.recs[0] = nullptr;
  EXPECT_FALSE(with_missing.distinct());
}

TEST(MapKeys, IntegerKeys) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 5000; ++i) values.push_back(i << 32);  // equal low words
  std::vector<RecordPtr> recs;
  for (auto& v : values) recs.push_back(reinterpret_cast<RecordPtr>(&v));
  FieldDef key{};
  key.type = FieldType::int64;
  std::vector<uint32_t> scratch;
  EXPECT_TRUE(distinct_map_keys(key, recs.data(), static_cast<uint32_t>(recs.size()), scratch));
  recs.push_back(recs[1234]);
  EXPECT_FALSE(distinct_map_keys(key, recs.data(), static_cast<uint32_t>(recs.size()), scratch));
}
