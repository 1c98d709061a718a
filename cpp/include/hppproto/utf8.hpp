// UTF-8 validation as proto3 strings require: no overlong forms, no surrogates, nothing past U+10FFFF.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace hppproto {

[[gnu::noinline]] inline bool is_valid_utf8_run(const uint8_t* p, size_t n) noexcept {
  const uint8_t* end = p + n;
  while (p < end) {
    // ASCII runs dominate real payloads: test 32 bytes at a time, then 8.
    constexpr uint64_t high_bits = 0x8080808080808080ull;
    while (end - p >= 32) {
      uint64_t w[4];
      std::memcpy(w, p, 32);
      if ((w[0] | w[1] | w[2] | w[3]) & high_bits) break;
      p += 32;
    }
    while (end - p >= 8) {
      uint64_t chunk;
      std::memcpy(&chunk, p, 8);
      if (chunk & high_bits) break;
      p += 8;
    }
    if (p == end) break;
    const uint8_t b0 = *p;
    if (b0 < 0x80) {
      ++p;
      continue;
    }
    size_t len;
    uint32_t lo = 0x80, hi = 0xbf;  // allowed range of the second byte
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      len = 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      len = 3;
      if (b0 == 0xe0) lo = 0xa0;       // overlong
      else if (b0 == 0xed) hi = 0x9f;  // surrogates
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      len = 4;
      if (b0 == 0xf0) lo = 0x90;       // overlong
      else if (b0 == 0xf4) hi = 0x8f;  // past U+10FFFF
    } else {
      return false;
    }
    if (static_cast<size_t>(end - p) < len) return false;
    if (p[1] < lo || p[1] > hi) return false;
    for (size_t i = 2; i < len; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
    }
    p += len;
  }
  return true;
}

// Short ASCII strings (names, symbols, keys) are the common case and cost a call and the loop's
// setup above more than their bytes: they are tested inline.
[[gnu::always_inline]] inline bool is_valid_utf8(const uint8_t* p, size_t n) noexcept {
  if (n <= 16) {
    uint32_t bits = 0;
    for (size_t i = 0; i < n; ++i) bits |= p[i];
    if (bits < 0x80) return true;
  }
  return is_valid_utf8_run(p, n);
}

}  // namespace hppproto
