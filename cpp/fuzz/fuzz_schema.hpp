// Shared by the fuzz targets: the schema table under test, read once from the file named by
// HPPPROTO_FUZZ_TABLE (cpp/fuzz.sh writes the test schemas' tables with hppproto-gen's encoder).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "hppproto/schema.hpp"

namespace hppproto::fuzz {

inline const Schema& table_under_test() {
  static const Schema schema = [] {
    const char* path = std::getenv("HPPPROTO_FUZZ_TABLE");
    std::FILE* f = path ? std::fopen(path, "rb") : nullptr;
    if (!f) {
      std::fprintf(stderr, "set HPPPROTO_FUZZ_TABLE to a schema table file\n");
      std::abort();
    }
    std::vector<uint8_t> bytes;
    for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<uint8_t>(c));
    std::fclose(f);
    Schema s;
    Status st;
    if (!s.load(bytes.data(), bytes.size(), st)) {
      std::fprintf(stderr, "%s: schema table rejected at byte %u\n", path, st.offset);
      std::abort();
    }
    return s;
  }();
  return schema;
}

}  // namespace hppproto::fuzz
