// Wire-format primitives: varints, zigzag, little-endian fixed-width values, tags, field skipping.
#pragma once
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hppproto {

enum class WireType : uint32_t { varint = 0, fixed64 = 1, len = 2, sgroup = 3, egroup = 4, fixed32 = 5 };

constexpr uint32_t max_field_number = (1u << 29) - 1;
constexpr size_t max_varint_bytes = 10;

template <class To, class From>
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}

constexpr uint32_t zigzag_decode32(uint32_t n) noexcept { return (n >> 1) ^ (0u - (n & 1)); }
constexpr uint64_t zigzag_decode64(uint64_t n) noexcept { return (n >> 1) ^ (0ull - (n & 1)); }
constexpr uint32_t zigzag_encode32(int32_t v) noexcept {
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}
constexpr uint64_t zigzag_encode64(int64_t v) noexcept {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// Wasm and every target we build for are little-endian, so fixed-width values are plain loads.
inline uint32_t load_fixed32(const uint8_t* p) noexcept {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t load_fixed64(const uint8_t* p) noexcept {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

enum class VarintResult { ok, truncated, overlong };

// Reads a varint of at most 10 bytes. `overlong` means an 11th byte or bits past 64 in the 10th
// byte. Non-minimal encodings (trailing 0x80 bytes) are valid protobuf and accepted.
inline VarintResult read_varint(const uint8_t*& p, const uint8_t* end, uint64_t& out) noexcept {
  if (p < end && *p < 0x80) {
    out = *p++;
    return VarintResult::ok;
  }
  uint64_t result = 0;
  const uint8_t* q = p;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (q == end) return VarintResult::truncated;
    const uint8_t byte = *q++;
    if (shift == 63 && byte > 1) return VarintResult::overlong;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) {
      p = q;
      out = result;
      return VarintResult::ok;
    }
  }
  return VarintResult::overlong;
}

// Tags are varints of at most 5 bytes holding a 32-bit value.
inline VarintResult read_tag(const uint8_t*& p, const uint8_t* end, uint32_t& out) noexcept {
  if (p < end && *p < 0x80) {
    out = *p++;
    return VarintResult::ok;
  }
  uint32_t result = 0;
  const uint8_t* q = p;
  for (unsigned shift = 0; shift < 35; shift += 7) {
    if (q == end) return VarintResult::truncated;
    const uint8_t byte = *q++;
    if (shift == 28 && byte > 0x0f) return VarintResult::overlong;
    result |= static_cast<uint32_t>(byte & 0x7f) << shift;
    if (byte < 0x80) {
      p = q;
      out = result;
      return VarintResult::ok;
    }
  }
  return VarintResult::overlong;
}

// The one- and two-byte forms of a varint, which most tags, lengths and values in real payloads
// take: read inline by the functions below, which leave longer ones to read_varint / read_tag.
[[gnu::always_inline]] inline bool read_one_or_two_bytes(const uint8_t*& p, const uint8_t* end, uint32_t& out) noexcept {
  if (p < end && *p < 0x80) {
    out = *p++;
    return true;
  }
  if (end - p >= 2 && p[1] < 0x80) {
    out = (p[0] & 0x7fu) | static_cast<uint32_t>(p[1]) << 7;
    p += 2;
    return true;
  }
  return false;
}

// The longer forms go through a copy of the position: the caller's must not have its address
// taken, or it leaves registers.
[[gnu::always_inline]] inline VarintResult read_short_varint(const uint8_t*& p, const uint8_t* end, uint64_t& out) noexcept {
  if (uint32_t v; read_one_or_two_bytes(p, end, v)) {
    out = v;
    return VarintResult::ok;
  }
  const uint8_t* q = p;
  const auto r = read_varint(q, end, out);
  p = q;
  return r;
}

[[gnu::always_inline]] inline VarintResult read_short_tag(const uint8_t*& p, const uint8_t* end, uint32_t& out) noexcept {
  if (read_one_or_two_bytes(p, end, out)) return VarintResult::ok;
  const uint8_t* q = p;
  const auto r = read_tag(q, end, out);
  p = q;
  return r;
}

// 7 payload bits a byte: ceil(bits / 7) for the value's 1..64 significant bits, without a loop.
constexpr size_t varint_size(uint64_t v) noexcept {
  return (static_cast<size_t>(std::bit_width(v | 1)) * 9 + 64) / 64;
}

inline uint8_t* write_varint(uint8_t* p, uint64_t v) noexcept {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

constexpr uint32_t make_tag(uint32_t field_number, WireType wt) noexcept {
  return (field_number << 3) | static_cast<uint32_t>(wt);
}

// Counts the varints in a packed run without decoding them: one per byte below 0x80.
// Reads a varint known to end before the buffer does (inside a packed run whose last byte is a
// terminator), so only the 10-byte limit needs checking. Returns false on an overlong varint.
inline bool read_terminated_varint(const uint8_t*& p, uint64_t& out) noexcept {
  uint64_t byte = *p++;
  uint64_t v = byte;
  if (byte < 0x80) {
    out = v;
    return true;
  }
  for (unsigned shift = 7; shift < 63; shift += 7) {
    byte = *p++;
    v += (byte - 1) << shift;  // removes the previous byte's continuation bit as it adds this one
    if (byte < 0x80) {
      out = v;
      return true;
    }
  }
  byte = *p++;  // the tenth byte may only hold bit 63
  if (byte > 1) return false;
  out = v + ((byte - 1) << 63);
  return true;
}

// Counts the varints in a packed run: its bytes without the continuation bit, eight at a time.
inline size_t count_varints(const uint8_t* p, const uint8_t* end) noexcept {
  size_t n = 0;
  for (; end - p >= 8; p += 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    n += static_cast<size_t>(std::popcount(~word & 0x8080808080808080ull));
  }
  for (; p < end; ++p) n += (*p < 0x80);
  return n;
}

}  // namespace hppproto
