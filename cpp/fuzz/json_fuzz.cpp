// The ProtoJSON reader: the first input byte picks a message of the schema, the rest is JSON text.
// Reading must never crash (ASan/UBSan watch) or take more than the text's budget; what it reads
// is a record the encoder must take, and the encoded bytes must decode and encode back unchanged.
// The ProtoJSON writer then prints the record (options from the first byte's high bits, doubles as
// %.17g where JS would print them): text the reader reads again must encode to the same bytes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_schema.hpp"
#include "hppproto/decoder.hpp"
#include "hppproto/encoder.hpp"
#include "hppproto/json_decoder.hpp"
#include "hppproto/json_encoder.hpp"
#include "hppproto/json_names.hpp"

using namespace hppproto;


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Schema& schema = fuzz::table_under_test();
  const JsonNames& names = fuzz::names_under_test();
  const uint32_t message = data[0] % schema.message_count();
  static const Limits limits;
  static ScratchBuffer<uint32_t> sizes;
  static std::vector<uint64_t> seen;
  static std::vector<uint32_t> keys;
  static Status json_status;
  Arena arena;
  // the text in a buffer of its own size, so that ASan sees any read past its end
  std::vector<uint8_t> text(data + 1, data + size);
  const RecordPtr rec = JsonDecoder(schema, names, arena, limits, json_status, seen, keys).decode(message, text.data(), text.size());
  if (!rec) return 0;
  const std::vector<uint8_t> first = fuzz::encode(schema, message, rec, limits, sizes);
  Status status;
  uint8_t* input = arena.allocate(first.size() + 1);
  if (!first.empty()) std::memcpy(input, first.data(), first.size());
  const RecordPtr again = Decoder(schema, arena, status, limits).decode(message, input, first.size());
  if (!again) std::abort();  // what JSON gave must decode: valid UTF-8, required fields, limits
  if (fuzz::encode(schema, message, again, limits, sizes) != first) std::abort();

  static ScratchBuffer<uint8_t> out;
  static std::vector<double> numbers;
  size_t n;
  if (!JsonEncoder(schema, names, limits, data[0] >> 5, out, numbers, keys).encode(message, rec, n)) return 0;
  std::vector<uint8_t> printed;
  size_t next = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t c = out.data()[i];
    if (c != number_marker && c != float_marker) {
      printed.push_back(c);
      continue;
    }
    if (next == numbers.size()) std::abort();
    char digits[40];
    const int len = std::snprintf(digits, sizeof digits, c == float_marker ? "%.9g" : "%.17g", numbers[next++]);
    printed.insert(printed.end(), digits, digits + len);
  }
  if (next != numbers.size()) std::abort();
  Arena arena2;
  const RecordPtr reread = JsonDecoder(schema, names, arena2, limits, json_status, seen, keys).decode(message, printed.data(), printed.size());
  if (reread && fuzz::encode(schema, message, reread, limits, sizes) != first) std::abort();
  return 0;
}
