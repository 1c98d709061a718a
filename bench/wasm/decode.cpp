// The decoder inside WASM, without JS around it: the table-driven decoder against a decoder
// written by hand for bench.tick.Tick that builds the same records (the reference the issue's
// "within 1.3x of a specialised decoder" is measured against; benchmark only, not shipped).
// Usage (bench/wasm.mjs builds and runs it): decode TABLE FRAMES, where FRAMES is the tick stream
// as length-delimited messages and TABLE the schema table they were generated with.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "hppproto/decoder.hpp"
#include "tick.hpp"

using namespace hppproto;
namespace tick = bench::tick;

namespace {

std::vector<uint8_t> slurp(const char* path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

// The records of a decoded tick as bytes, pointers followed, for comparing the two decoders.
std::string flatten(const uint8_t* rec) {
  std::string out(reinterpret_cast<const char*>(rec), tick::tick_size);
  BytesSlot s;
  std::memcpy(&s, rec + tick::symbol, sizeof s);
  out.append(reinterpret_cast<const char*>(s.data), s.size);
  for (uint32_t off : {tick::bids, tick::asks}) {
    ArraySlot a;
    std::memcpy(&a, rec + off, sizeof a);
    for (uint32_t i = 0; i < a.size; ++i) out.append(reinterpret_cast<const char*>(static_cast<RecordPtr*>(a.data)[i]), tick::level_size);
  }
  for (size_t i = 0; i + 4 <= tick::tick_size; i += 4) {  // pointers differ between arenas: blank them
    if (i == tick::symbol || i == tick::bids || i == tick::asks) std::memset(out.data() + i, 0, 4);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 1;
  const auto table = slurp(argv[1]), stream = slurp(argv[2]);
  Schema schema;
  Status status;
  Limits limits;
  if (!schema.load(table.data(), table.size(), status)) return std::puts("table rejected"), 1;
  const uint32_t tick_index = argc > 3 ? static_cast<uint32_t>(std::stoul(argv[3])) : 0;
  std::vector<std::pair<const uint8_t*, size_t>> frames;
  for (const uint8_t *p = stream.data(), *end = p + stream.size(); p < end;) {
    uint64_t n;
    if (read_varint(p, end, n) != VarintResult::ok) return 1;
    frames.emplace_back(p, n);
    p += n;
  }
  Arena a, b;
  for (auto [p, n] : frames) {
    a.reset();
    b.reset();
    const uint8_t* x = Decoder(schema, a, status, limits).decode(tick_index, p, n);
    const uint8_t* y = tick::decode(b, p, n);
    if (!x || !y || flatten(x) != flatten(y)) return std::puts("the decoders disagree"), 1;
  }
  size_t bytes = 0;
  for (auto f : frames) bytes += f.second;
  const auto time = [&](auto&& decode) {
    double best = 1e30;
    for (int round = 0; round < 7; ++round) {
      const auto t0 = std::chrono::steady_clock::now();
      size_t reps = 0;
      while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(200)) {
        for (auto [p, n] : frames) {
          a.reset();
          if (!decode(p, n)) std::abort();
        }
        ++reps;
      }
      const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps / frames.size();
      if (ns < best) best = ns;
    }
    return best;
  };
  const double table_ns = time([&](const uint8_t* p, size_t n) { return Decoder(schema, a, status, limits).decode(tick_index, p, n); });
  const double hand_ns = time([&](const uint8_t* p, size_t n) { return tick::decode(a, p, n); });
  constexpr double fields = 23;  // 5 of the tick, 2 in each of its 6 levels
  std::printf("tick frame (%.0f bytes, 23 fields), best of 7 rounds: table-driven %.0f ns (%.1f ns/field), hand-written %.0f ns (%.1f ns/field): %.2fx\n",
              double(bytes) / frames.size(), table_ns, table_ns / fields, hand_ns, hand_ns / fields, table_ns / hand_ns);
}
