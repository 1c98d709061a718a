// Shared by the fuzz targets: the schema table under test, read once from the file named by
// HPPPROTO_FUZZ_TABLE (cpp/fuzz.sh writes the test schemas' tables with hppproto-gen's encoder),
// its ProtoJSON names (HPPPROTO_FUZZ_NAMES), and encoding a record that must be encodable.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "hppproto/encoder.hpp"
#include "hppproto/json_names.hpp"
#include "hppproto/schema.hpp"

namespace hppproto::fuzz {

// The bytes of the file an environment variable names.
inline std::vector<uint8_t> file_named_by(const char* variable) {
  const char* path = std::getenv(variable);
  std::FILE* f = path ? std::fopen(path, "rb") : nullptr;
  if (!f) {
    std::fprintf(stderr, "set %s to the file to fuzz with\n", variable);
    std::abort();
  }
  std::vector<uint8_t> bytes;
  for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  return bytes;
}

inline const Schema& table_under_test() {
  static const Schema schema = [] {
    const std::vector<uint8_t> bytes = file_named_by("HPPPROTO_FUZZ_TABLE");
    Schema s;
    Status st;
    if (!s.load(bytes.data(), bytes.size(), st)) {
      std::fprintf(stderr, "schema table rejected at byte %u\n", st.offset);
      std::abort();
    }
    return s;
  }();
  return schema;
}

inline const JsonNames& names_under_test() {
  static const JsonNames names = [] {
    const std::vector<uint8_t> bytes = file_named_by("HPPPROTO_FUZZ_NAMES");
    JsonNames n;
    Status st;
    if (!n.load(table_under_test(), bytes.data(), bytes.size(), st)) {
      std::fprintf(stderr, "JSON names rejected at byte %u\n", st.offset);
      std::abort();
    }
    return n;
  }();
  return names;
}

// The record's encoding; aborts if the encoder refuses it (every record a reader made is encodable).
inline std::vector<uint8_t> encode(const Schema& schema, uint32_t message, const uint8_t* rec, const Limits& limits,
                                   ScratchBuffer<uint32_t>& sizes) {
  Status status;
  Encoder e(schema, status, limits, sizes);
  size_t size = 0;
  if (!e.measure(message, rec, size)) std::abort();
  std::vector<uint8_t> out(size);
  if (e.write(message, rec, out.data()) != out.data() + size) std::abort();
  return out;
}

}  // namespace hppproto::fuzz
