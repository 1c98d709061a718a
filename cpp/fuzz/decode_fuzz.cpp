// Decoder and encoder round trip: the first input byte picks a message of the schema, the rest is
// its payload. Decoding must never crash (ASan/UBSan watch); when it succeeds, encoding the result
// must succeed, and decoding that and encoding again must give the same bytes (encode is canonical,
// so decode -> encode -> decode keeps every field and unknown field).
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fuzz_schema.hpp"
#include "hppproto/decoder.hpp"
#include "hppproto/encoder.hpp"

using namespace hppproto;


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Schema& schema = fuzz::table_under_test();
  const uint32_t message = data[0] % schema.message_count();
  static const Limits limits;
  static ScratchBuffer<uint32_t> sizes;
  Arena arena;
  Status status;
  // the payload lives in the arena, as the JS runtime stages it there
  uint8_t* input = arena.allocate(size);
  std::memcpy(input, data + 1, size - 1);
  const RecordPtr rec = Decoder(schema, arena, status, limits).decode(message, input, size - 1);
  if (!rec) return 0;
  const std::vector<uint8_t> first = fuzz::encode(schema, message, rec, limits, sizes);
  uint8_t* again_input = arena.allocate(first.size() + 1);
  if (!first.empty()) std::memcpy(again_input, first.data(), first.size());
  const RecordPtr again = Decoder(schema, arena, status, limits).decode(message, again_input, first.size());
  if (!again) std::abort();  // our own output must decode
  if (fuzz::encode(schema, message, again, limits, sizes) != first) std::abort();
  return 0;
}
