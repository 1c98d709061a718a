// ProtoJSON text (UTF-8) to records, in one pass, for the shapes serializers write: objects of
// fields by json or .proto name, numbers as numbers (integers also as decimal strings), enum
// names, base64 bytes, arrays, maps. Anything else (a well-known type's own form, numbers written
// as "1e2" for an integer field, an unknown key, a duplicate field, an unknown enum name, an error) is
// not read here: decode() returns nullptr and the JS runtime reads the text with its own reader,
// which also names what is wrong. So what this reader accepts it must read exactly as that one.
// The one error it reports itself is text that would take more memory than its size allows
// (Error::memory_budget, as for binary input): the JS reader would build that much and more.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "arena.hpp"
#include "decoder.hpp"
#include "json_names.hpp"
#include "map_keys.hpp"
#include "record.hpp"
#include "schema.hpp"
#include "utf8.hpp"

namespace hppproto {

// The helpers of a key and its value are inlined into message() (always_inline), which saves a call
// and a trip of the cursor through memory each (measured: GoogleMessage1 read in 670 ns instead of
// 745-785 ns, for 0.85 KB gzip of module; inlining value() too saves 40 ns more for 2.5 KB).
class JsonDecoder {
 public:
  // Nesting deeper than this is left to the JS reader (whose own limit it is).
  static constexpr uint32_t max_depth = 64;

  JsonDecoder(const Schema& schema, const JsonNames& names, Arena& arena, const Limits& limits, Status& status,
              std::vector<uint64_t>& seen, std::vector<uint32_t>& keys) noexcept
      : schema_(schema), names_(names), arena_(arena), limits_(limits), status_(status), seen_(seen), keys_(keys) {}

  // The message's record, or nullptr (the arena rewound) when the text is not read here; the status
  // says memory_budget, with the offset reached, when the text is refused instead.
  RecordPtr decode(uint32_t mi, const uint8_t* text, size_t size) noexcept {
    status_.clear();
    p_ = text;
    end_ = text + size;
    seen_.clear();
    const auto cp = arena_.checkpoint();
    // what the text may make of itself is bounded as for binary input (`{}` of a large message)
    const size_t limit = arena_.limit();
    const size_t cap = budget_cap(arena_, limits_, size);
    budget_in_force_ = cap < limit;
    if (budget_in_force_) arena_.set_limit(cap);
    over_budget_ = false;
    RecordPtr rec = nullptr;
    const bool read = size <= limits_.max_message_size && message(mi, rec, 0) && (ws(), p_ == end_);
    arena_.set_limit(limit);
    if (read) return rec;
    if (over_budget_) status_.fail(Error::memory_budget, static_cast<uint32_t>(p_ - text), limits_.max_amplification);
    arena_.rewind(cp);
    return nullptr;
  }

 private:
  // ---- memory ----

  // The arena's allocations, noting one refused by the budget (not by the arena's own limit or malloc).
  uint8_t* allocate(size_t size, bool zeroed = false) noexcept {
    uint8_t* p = zeroed ? arena_.allocate_zeroed(size) : arena_.allocate(size);
    if (!p && budget_in_force_ && arena_.failed_on_limit()) over_budget_ = true;
    return p;
  }

  // ---- the text ----

  void ws() noexcept {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool take(uint8_t c) noexcept {
    ws();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool literal(const char* word, size_t n) noexcept {
    if (static_cast<size_t>(end_ - p_) < n) return false;
    for (size_t i = 0; i < n; ++i)  // a loop, not a call to memcmp
      if (p_[i] != static_cast<uint8_t>(word[i])) return false;
    p_ += n;
    return true;
  }
  bool null() noexcept {
    ws();
    return p_ < end_ && *p_ == 'n' && literal("null", 4);
  }

  // Moves p_ over a string's characters to its closing quote or next backslash, eight bytes at a
  // time while none is special; false at a control character or the end of the text. With `copy`,
  // what it passes is also written at o (eight bytes at a time too: o never runs ahead of p_, and
  // words are read only while `limit` is eight bytes away, so whole words stay inside o's room).
  // U+FFFD (EF BF BD) may stand for a lone surrogate of the JS string the text was encoded from,
  // which JSON must reject: such text goes to the JS reader.
  template <bool copy>
  [[gnu::always_inline]] bool string_run(uint8_t*& o, const uint8_t* limit) noexcept {
    for (;;) {
      // (the step past the special byte is taken after the loop: inside it, the compiler made the
      // next word's address depend on this word's bytes, serializing the loads: 2x slower)
      uint64_t special = 0;
      while (limit - p_ >= 8) {
        uint64_t w;
        std::memcpy(&w, p_, 8);
        if constexpr (copy) std::memcpy(o, &w, 8);
        // the lowest byte marked is the first quote, backslash, control character or non-ASCII byte
        special = json_special_bytes<true>(w);
        if (special) break;
        if constexpr (copy) o += 8;
        p_ += 8;
      }
      if (special) {
        const size_t k = static_cast<size_t>(__builtin_ctzll(special) >> 3);
        if constexpr (copy) o += k;
        p_ += k;
      }
      if (p_ == end_) return false;
      const uint8_t c = *p_;
      if (c == '"' || c == '\\') return true;
      if (c < 0x20) return false;
      if (c >= 0x80) {
        string_ascii_ = false;
        if (c == 0xef && end_ - p_ >= 3 && p_[1] == 0xbf && p_[2] == 0xbd) return false;
      }
      if constexpr (copy) *o++ = c;
      ++p_;
    }
  }

  [[gnu::always_inline]] bool skip_run() noexcept {
    uint8_t* none = nullptr;
    return string_run<false>(none, end_);
  }

  // Takes a string's opening quote (its characters begin at start) and moves p_ to its closing
  // quote or first backslash.
  [[gnu::always_inline]] bool open_string(const uint8_t*& start) noexcept {
    if (!take('"')) return false;
    start = p_;
    string_ascii_ = true;
    return skip_run();
  }

  // A string without escapes (names and keys): its bytes between the quotes. An escaped name is the
  // JS reader's.
  [[gnu::always_inline]] bool plain_string(const uint8_t*& start, size_t& size) noexcept {
    if (!open_string(start) || *p_ != '"') return false;
    size = static_cast<size_t>(p_ - start);
    ++p_;
    return true;
  }

  static int hex(uint8_t c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  }
  static bool hex4(const uint8_t* s, const uint8_t* end, uint32_t& out) noexcept {
    if (end - s < 4) return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex(s[i]);
      if (h < 0) return false;
      out = out << 4 | static_cast<uint32_t>(h);
    }
    return true;
  }

  // A string's value as UTF-8: the text itself when it has no escapes, else decoded into the arena.
  // (Text from JS is always valid UTF-8; other callers' bytes may not be, unless ASCII. Escapes
  // decode to whole, valid sequences, so the value is valid exactly when the text is.)
  [[gnu::always_inline]] bool string(BytesSlot& out) noexcept {
    const uint8_t* start;
    if (!open_string(start)) return false;
    if (*p_ == '\\') return escaped_string(start, out);
    const size_t n = static_cast<size_t>(p_ - start);
    ++p_;
    out = BytesSlot{start, static_cast<uint32_t>(n)};
    return string_ascii_ || is_valid_utf8(start, n);
  }

  // The rest of a string from its first backslash. A value is never longer than its text, so when
  // the rest of the text fits in the arena's free space the value is decoded there as the text is
  // read; else the string is measured first and decoded into an allocation of its size. One pass
  // instead of two saves a mispredicted branch per escape (GoogleMessage1 with 2 KB strings: 139 escapes).
  [[gnu::noinline]] bool escaped_string(const uint8_t* start, BytesSlot& out) noexcept {
    const uint8_t* const first_escape = p_;
    size_t room;
    uint8_t* dst = arena_.free_space(room);
    const uint8_t* limit = end_;
    const bool in_free_space = room >= static_cast<size_t>(end_ - start);
    if (!in_free_space) {
      do {
        if (end_ - p_ < 2) return false;
        p_ += 2;
        if (!skip_run()) return false;
      } while (*p_ == '\\');
      limit = p_;
      dst = allocate(static_cast<size_t>(limit - start));
      if (!dst) return false;
      p_ = first_escape;
    }
    std::memcpy(dst, start, static_cast<size_t>(first_escape - start));
    uint8_t* o = dst + (first_escape - start);
    do {
      if (!escape(o) || !string_run<true>(o, limit)) return false;
    } while (*p_ == '\\');
    ++p_;
    const size_t n = static_cast<size_t>(o - dst);
    if (!string_ascii_ && !is_valid_utf8(dst, n)) return false;
    if (in_free_space) arena_.keep(n);
    out = BytesSlot{dst, static_cast<uint32_t>(n)};
    return true;
  }

  // The escape at p_ (a backslash), written at o as UTF-8.
  [[gnu::always_inline]] bool escape(uint8_t*& o) noexcept {
    if (end_ - p_ < 2) return false;
    const uint8_t e = p_[1];
    p_ += 2;
    switch (e) {
      case '"': *o++ = '"'; return true;
      case '\\': *o++ = '\\'; return true;
      case '/': *o++ = '/'; return true;
      case 'b': *o++ = '\b'; return true;
      case 'f': *o++ = '\f'; return true;
      case 'n': *o++ = '\n'; return true;
      case 'r': *o++ = '\r'; return true;
      case 't': *o++ = '\t'; return true;
      case 'u': break;
      default: return false;
    }
    uint32_t cp;
    if (!hex4(p_, end_, cp)) return false;
    p_ += 4;
    if (cp >= 0xdc00 && cp <= 0xdfff) return false;  // a lone low surrogate
    if (cp >= 0xd800 && cp <= 0xdbff) {
      uint32_t low;
      if (end_ - p_ < 6 || p_[0] != '\\' || p_[1] != 'u' || !hex4(p_ + 2, end_, low) || low < 0xdc00 || low > 0xdfff)
        return false;  // a lone high surrogate
      p_ += 6;
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    }
    if (cp < 0x80) {
      *o++ = static_cast<uint8_t>(cp);
    } else if (cp < 0x800) {
      *o++ = static_cast<uint8_t>(0xc0 | cp >> 6);
      *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      *o++ = static_cast<uint8_t>(0xe0 | cp >> 12);
      *o++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3f));
      *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3f));
    } else {
      *o++ = static_cast<uint8_t>(0xf0 | cp >> 18);
      *o++ = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3f));
      *o++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3f));
      *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3f));
    }
    return true;
  }

  // ---- numbers ----

  // An integer as serializers write it, bare or quoted: -?(0|[1-9][0-9]*), up to 2^64 - 1 in
  // magnitude. Fractions, exponents, "-0" and leading zeros are for the JS reader.
  static bool digits(const uint8_t*& p, const uint8_t* end, bool& negative, uint64_t& magnitude) noexcept {
    negative = p < end && *p == '-';
    if (negative) ++p;
    if (p == end || *p < '0' || *p > '9') return false;
    if (*p == '0') {
      ++p;
      magnitude = 0;
      return !negative && (p == end || *p < '0' || *p > '9');
    }
    // 19 digits cannot overflow; a 20th is checked against 2^64 - 1 (no 128-bit multiply, which
    // is a library call in wasm32)
    uint64_t v = 0;
    int n = 0;
    for (; p < end && *p >= '0' && *p <= '9'; ++p, ++n) {
      const auto d = static_cast<uint64_t>(*p - '0');
      if (n >= 19 && (n > 19 || v > UINT64_MAX / 10 || (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))) return false;
      v = v * 10 + d;
    }
    magnitude = v;
    return true;
  }

  [[gnu::always_inline]] bool integer(bool& negative, uint64_t& magnitude) noexcept {
    ws();
    const bool quoted = p_ < end_ && *p_ == '"';
    if (quoted) ++p_;
    if (!digits(p_, end_, negative, magnitude)) return false;
    if (quoted) return p_ < end_ && *p_++ == '"';
    return p_ == end_ || (*p_ != '.' && *p_ != 'e' && *p_ != 'E');
  }

  // An integer of an integer field's type, stored at dst in its slot width; false out of range.
  static bool put_integer(FieldType t, bool negative, uint64_t magnitude, uint8_t* dst) noexcept {
    const bool wide = value_size(t) == 8;
    const bool is_signed = t == FieldType::int32 || t == FieldType::sint32 || t == FieldType::sfixed32 ||
                           t == FieldType::int64 || t == FieldType::sint64 || t == FieldType::sfixed64;
    const uint64_t max = wide ? (is_signed ? INT64_MAX : UINT64_MAX) : (is_signed ? INT32_MAX : UINT32_MAX);
    if (negative ? !is_signed || magnitude > max + 1 : magnitude > max) return false;
    const uint64_t bits = negative ? ~magnitude + 1 : magnitude;
    return wide ? put<uint64_t>(dst, bits) : put<uint32_t>(dst, static_cast<uint32_t>(bits));
  }

  // A bare JSON number as a double, rounded as JS's Number() rounds it (correctly). Numbers of more
  // than 19 digits or exponents past ±19 are the JS reader's.
  bool number(double& out) noexcept {
    ws();
    const uint8_t* start = p_;
    const uint8_t* p = p_;
    if (p < end_ && *p == '-') ++p;
    if (p == end_ || *p < '0' || *p > '9') return false;
    uint64_t mantissa = 0;
    int significant = 0, exponent = 0;
    if (*p == '0') {
      ++p;
    } else {
      for (; p < end_ && *p >= '0' && *p <= '9'; ++p) {
        if (significant < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*p - '0'), ++significant;
        else ++exponent, significant = 99;
      }
    }
    if (p < end_ && *p == '.') {
      ++p;
      if (p == end_ || *p < '0' || *p > '9') return false;
      for (; p < end_ && *p >= '0' && *p <= '9'; ++p) {
        if (mantissa == 0 && *p == '0') { --exponent; continue; }  // leading zeros of a fraction
        if (significant < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*p - '0'), ++significant, --exponent;
        else significant = 99;
      }
    }
    if (p < end_ && (*p == 'e' || *p == 'E')) {
      ++p;
      bool neg = false;
      if (p < end_ && (*p == '+' || *p == '-')) neg = *p++ == '-';
      if (p == end_ || *p < '0' || *p > '9') return false;
      int e = 0;
      for (; p < end_ && *p >= '0' && *p <= '9'; ++p) e = e < 100000 ? e * 10 + (*p - '0') : e;
      exponent += neg ? -e : e;
    }
    p_ = p;
    if (significant > 19) return false;  // more digits than a u64 holds: the JS reader's
    double v;
    if (!decimal_to_double(mantissa, significant, exponent, v)) return false;
    out = *start == '-' ? -v : v;
    return true;
  }

  // mantissa × 10^exponent, correctly rounded (round half to even), for up to 19 digits and
  // |exponent| up to 19; false past that.
  static bool decimal_to_double(uint64_t mantissa, int significant, int exponent, double& out) noexcept {
    static constexpr uint64_t pow10[] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
        100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
        100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
        1000000000000000000ull, 10000000000000000000ull};
    if (mantissa == 0) {
      out = 0;
      return true;
    }
    // Clinger's fast path: mantissa and power of ten both exact in a double, so one operation
    // rounds once
    if (significant <= 15 && exponent >= -22 && exponent <= 22) {
      static constexpr double powers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
      const double m = static_cast<double>(mantissa);
      out = exponent < 0 ? m / powers[-exponent] : m * powers[exponent];
      return true;
    }
    if (exponent > 19 || exponent < -19) return false;
    if (exponent >= 0) {  // exact as a 128-bit product, then rounded once
      uint64_t high, low;
      multiply(mantissa, pow10[exponent], high, low);
      out = round_wide(high, low, false, 0);
      return true;
    }
    // mantissa × 2^shift / 10^k by long division, one quotient bit at a time: a quotient of 64 or 65
    // bits, the remainder as a sticky bit (portable: no 128-bit type on 32-bit hosts)
    const uint64_t divisor = pow10[-exponent];
    const int shift = 64 + bit_length(divisor) - bit_length(mantissa);
    uint64_t high = 0, low = mantissa / divisor, rest = mantissa % divisor;
    for (int i = 0; i < shift; ++i) {
      const bool carry = rest >> 63;
      rest <<= 1;
      high = high << 1 | low >> 63;
      low <<= 1;
      if (carry || rest >= divisor) {
        rest -= divisor;
        low |= 1;
      }
    }
    out = round_wide(high, low, rest != 0, -shift);
    return true;
  }

  static int bit_length(uint64_t v) noexcept { return 64 - __builtin_clzll(v); }

  // The 128-bit product of a and b, from 32-bit halves.
  static void multiply(uint64_t a, uint64_t b, uint64_t& high, uint64_t& low) noexcept {
    const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    low = (middle << 32) | (p00 & 0xffffffffu);
    high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  }

  // (high·2^64 + low, plus a nonzero sticky remainder below it) × 2^scale as the nearest double.
  // The top 64 bits keep every bit that decides the rounding; the rest fold into bit 0, far below
  // the 53 kept.
  static double round_wide(uint64_t high, uint64_t low, bool sticky, int scale) noexcept {
    uint64_t top;
    if (high == 0) {
      top = low | sticky;  // with a remainder, low has 64 bits (the quotient's)
    } else {
      const int drop = bit_length(high);  // 1..64
      const uint64_t dropped = drop == 64 ? low : low & ((uint64_t{1} << drop) - 1);
      top = (drop == 64 ? high : (high << (64 - drop)) | (low >> drop)) | (dropped != 0) | sticky;
      scale += drop;
    }
    // 2^scale is a normal double here (|scale| < 200)
    const uint64_t bits = static_cast<uint64_t>(1023 + scale) << 52;
    double power;
    std::memcpy(&power, &bits, 8);
    return static_cast<double>(top) * power;
  }

  // ---- values ----

  // One value of the field's type at dst (a slot or an array element).
  bool value(uint32_t mi, uint32_t fi, const FieldDef& f, uint8_t* dst, uint32_t depth) noexcept {
    switch (f.type) {
      case FieldType::int32: case FieldType::sint32: case FieldType::sfixed32: case FieldType::uint32:
      case FieldType::fixed32: case FieldType::int64: case FieldType::sint64: case FieldType::sfixed64:
      case FieldType::uint64: case FieldType::fixed64: {
        bool negative;
        uint64_t m;
        return integer(negative, m) && put_integer(f.type, negative, m, dst);
      }
      case FieldType::double_: {
        double d;
        if (!number(d) || std::isinf(d)) return false;
        return put<double>(dst, d);
      }
      case FieldType::float_: {
        double d;
        if (!number(d) || std::isinf(d) || std::fabs(d) > 3.4028234663852886e38) return false;
        return put<float>(dst, static_cast<float>(d));
      }
      case FieldType::bool_: {
        ws();
        if (literal("true", 4)) return put<uint8_t>(dst, 1);
        return literal("false", 5) && put<uint8_t>(dst, 0);
      }
      case FieldType::enum_: return enum_value(mi, fi, f, dst);
      case FieldType::string: {
        BytesSlot s;
        return string(s) && put<BytesSlot>(dst, s);
      }
      case FieldType::bytes: {
        BytesSlot s;
        return base64(s) && put<BytesSlot>(dst, s);
      }
      case FieldType::message: case FieldType::group: {
        RecordPtr rec = nullptr;
        return message(f.aux, rec, depth + 1) && put<RecordPtr>(dst, rec);
      }
    }
    return false;
  }

  template <class T>
  static bool put(uint8_t* dst, T v) noexcept {
    std::memcpy(dst, &v, sizeof v);
    return true;
  }

  bool enum_value(uint32_t mi, uint32_t fi, const FieldDef& f, uint8_t* dst) noexcept {
    const uint32_t ei = names_.enum_of(mi, fi);
    if (names_.enum_own_form(ei)) return false;
    ws();
    int32_t n;
    if (p_ < end_ && *p_ == '"') {
      const uint8_t* s;
      size_t size;
      if (!plain_string(s, size) || !names_.enum_value(ei, s, size, n)) return false;
    } else {
      bool negative;
      uint64_t m;
      const uint8_t* p = p_;
      if (!digits(p, end_, negative, m) || (p < end_ && (*p == '.' || *p == 'e' || *p == 'E'))) return false;
      if (negative ? m > 0x80000000u : m > 0x7fffffffu) return false;
      p_ = p;
      n = negative ? static_cast<int32_t>(~static_cast<uint32_t>(m) + 1) : static_cast<int32_t>(m);
      // a closed enum keeps a number it does not declare as an unknown field: the JS reader's case
      if ((f.flags & field_flags::closed_enum) && !schema_.enum_contains(f.aux, n)) return false;
    }
    return put<int32_t>(dst, n);
  }

  // Standard or URL-safe base64, padded or not (what the JS reader accepts).
  bool base64(BytesSlot& out) noexcept {
    const uint8_t* s;
    size_t n;
    if (!plain_string(s, n)) return false;
    size_t end = n;
    while (end > 0 && s[end - 1] == '=') --end;
    if (n - end > 2 || (n != end && n % 4 != 0) || end % 4 == 1) return false;
    uint8_t* dst = allocate(end * 3 / 4 + 1);
    if (!dst) return false;
    uint32_t acc = 0;
    int bits = 0;
    uint8_t* o = dst;
    for (size_t i = 0; i < end; ++i) {
      const uint8_t c = s[i];
      int v;
      if (c >= 'A' && c <= 'Z') v = c - 'A';
      else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
      else if (c >= '0' && c <= '9') v = c - '0' + 52;
      else if (c == '+' || c == '-') v = 62;
      else if (c == '/' || c == '_') v = 63;
      else return false;
      acc = acc << 6 | static_cast<uint32_t>(v);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        *o++ = static_cast<uint8_t>(acc >> bits);
      }
    }
    out = BytesSlot{dst, static_cast<uint32_t>(o - dst)};
    return true;
  }

  // ---- messages ----

  bool message(uint32_t mi, RecordPtr& out, uint32_t depth) noexcept {
    if (depth >= max_depth || depth >= limits_.max_depth || !names_.readable(mi)) return false;
    const MessageDef& m = schema_.message(mi);
    RecordPtr rec = allocate(m.record_size, true);
    if (!rec || !take('{')) return false;
    // which fields were given, for duplicates: a bit per field, on this frame's stack up to 512
    // fields, else on a vector shared by the nesting (indexed each time: a nested message may grow it)
    const size_t words = (m.field_count + 63) / 64;
    uint64_t local[8];
    const bool on_stack = words <= 8;
    const size_t seen = seen_.size();
    if (on_stack) {
      for (size_t i = 0; i < words; ++i) local[i] = 0;
    } else {
      seen_.resize(seen + words, 0);
    }
    const FieldDef* fields = schema_.fields(m);
    const JsonNames::FieldNames* names = names_.fields(mi);
    uint32_t next = 0;
    ws();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
    } else {
      for (;;) {
        const uint32_t fi = key(mi, names, m.field_count, next);
        // an unknown key is the JS reader's: an error, or under ignoreUnknownFields skipped (its
        // parser still rejects duplicate keys inside what is skipped)
        if (fi == JsonNames::not_found || !take(':')) return false;
        uint64_t& word = on_stack ? local[fi / 64] : seen_[seen + fi / 64];
        const uint64_t bit = uint64_t{1} << (fi % 64);
        if (word & bit) return false;
        word |= bit;
        if (!field(mi, fi, fields[fi], rec, depth)) return false;
        next = fi + 1;
        if (take(',')) continue;
        if (take('}')) break;
        return false;
      }
    }
    if (!on_stack) seen_.resize(seen);
    if (m.required_count != 0 && !has_required(m, rec)) return false;
    out = rec;
    return true;
  }

  // The field a key names. Serializers write fields in order, most of them left out: the json
  // names of the next few fields after the last one are compared with the text in place first.
  [[gnu::always_inline]] uint32_t key(uint32_t mi, const JsonNames::FieldNames* names, uint32_t count, uint32_t next) noexcept {
    ws();
    if (p_ == end_ || *p_ != '"') return JsonNames::not_found;
    const size_t room = static_cast<size_t>(end_ - p_) - 1;
    const uint32_t last = count - next < 4 ? count : next + 4;
    for (uint32_t fi = next; fi < last; ++fi) {
      const Name& name = names[fi].json;
      const size_t n = name.size;
      // the quote after the name and its last letter first: names often share a prefix
      if (n < room && p_[1 + n] == '"' && n > 0 && p_[n] == name.data[n - 1] && name.equals(p_ + 1, n)) {
        p_ += n + 2;  // a name holds no quote or backslash, so this was the whole key
        return fi;
      }
    }
    const uint8_t* k;
    size_t size;
    if (!plain_string(k, size)) return JsonNames::not_found;
    return names_.find(mi, k, size);
  }

  bool has_required(const MessageDef& m, const uint8_t* rec) const noexcept {
    const uint32_t* bits = schema_.required_hasbits(m);
    for (uint32_t i = 0; i < m.required_count; ++i)
      if (!(rec[bits[i] / 8] & (1u << (bits[i] % 8)))) return false;
    return true;
  }

  [[gnu::always_inline]] bool field(uint32_t mi, uint32_t fi, const FieldDef& f, uint8_t* rec, uint32_t depth) noexcept {
    if (null()) {
      // the field is absent, unless null is a value of its type (Value, NullValue): not read here
      if (f.type == FieldType::enum_) return !names_.enum_own_form(names_.enum_of(mi, fi));
      return !((f.type == FieldType::message || f.type == FieldType::group) && !names_.readable(f.aux));
    }
    if (f.label == Label::repeated) return list(mi, fi, f, *reinterpret_cast<ArraySlot*>(rec + f.offset), depth);
    if (f.label == Label::map) return map(f, *reinterpret_cast<ArraySlot*>(rec + f.offset), depth);
    if (f.label == Label::oneof) {
      uint32_t current;
      std::memcpy(&current, rec + f.presence, 4);
      if (current != 0) return false;  // a second member of the oneof
      std::memcpy(rec + f.presence, &f.number, 4);
    } else if (f.hasbit_mask) {
      rec[f.hasbit_byte] |= f.hasbit_mask;
    }
    return value(mi, fi, f, rec + f.offset, depth);
  }

  // Room for one more element of `width` bytes.
  uint8_t* append(ArraySlot& a, size_t width) noexcept {
    if (a.size == a.capacity) {
      if (a.size >= limits_.max_elements) return nullptr;
      uint32_t cap = a.capacity == 0 ? 4 : a.capacity * 2;
      if (cap > limits_.max_elements || cap < a.capacity) cap = limits_.max_elements;
      if (cap > SIZE_MAX / width) return nullptr;
      auto* fresh = allocate(static_cast<size_t>(cap) * width);
      if (!fresh) return nullptr;
      if (a.size) std::memcpy(fresh, a.data, a.size * width);
      a.data = fresh;
      a.capacity = cap;
    }
    return static_cast<uint8_t*>(a.data) + static_cast<size_t>(a.size++) * width;
  }

  bool list(uint32_t mi, uint32_t fi, const FieldDef& f, ArraySlot& a, uint32_t depth) noexcept {
    if (!take('[')) return false;
    if (take(']')) return true;
    const size_t width = value_size(f.type);
    do {
      if (null()) return false;  // null elements: the JS reader's error
      uint8_t* dst = append(a, width);
      if (!dst || !value(mi, fi, f, dst, depth)) return false;
    } while (take(','));
    return take(']');
  }

  // Map entries as records of key (field 1) and value (field 2), as the binary decoder makes them.
  bool map(const FieldDef& f, ArraySlot& a, uint32_t depth) noexcept {
    if (depth + 1 >= max_depth || !take('{')) return false;
    if (take('}')) return true;
    const MessageDef& entry = schema_.message(f.aux);
    const FieldDef* kv = schema_.fields(entry);
    if (entry.field_count != 2 || !names_.readable(f.aux)) return false;
    const FieldDef& key = kv[0];
    const FieldDef& val = kv[1];
    do {
      RecordPtr rec = allocate(entry.record_size, true);
      auto* slot = reinterpret_cast<RecordPtr*>(append(a, sizeof(RecordPtr)));
      if (!rec || !slot || !map_key(key, rec) || !take(':')) return false;
      *slot = rec;
      if (null()) return false;  // null map values: the JS reader's error
      if (key.hasbit_mask) rec[key.hasbit_byte] |= key.hasbit_mask;
      if (val.hasbit_mask) rec[val.hasbit_byte] |= val.hasbit_mask;
      if (!value(f.aux, 1, val, rec + val.offset, depth + 1)) return false;
    } while (take(','));
    // a key given twice (its text may differ: "a" and "\u0061") is the JS reader's error to report
    return take('}') && distinct_map_keys(key, static_cast<const RecordPtr*>(a.data), a.size, keys_);
  }

  bool map_key(const FieldDef& key, uint8_t* rec) noexcept {
    ws();
    if (key.type == FieldType::string) {
      BytesSlot s;
      return string(s) && put<BytesSlot>(rec + key.offset, s);
    }
    const uint8_t* s;
    size_t n;
    if (!plain_string(s, n)) return false;
    uint8_t* dst = rec + key.offset;
    if (key.type == FieldType::bool_) {
      if (n == 4 && std::memcmp(s, "true", 4) == 0) return put<uint8_t>(dst, 1);
      return n == 5 && std::memcmp(s, "false", 5) == 0 && put<uint8_t>(dst, 0);
    }
    bool negative;
    uint64_t m;
    const uint8_t* p = s;
    if (!digits(p, s + n, negative, m) || p != s + n) return false;
    return put_integer(key.type, negative, m, dst);
  }

  const Schema& schema_;
  const JsonNames& names_;
  Arena& arena_;
  const Limits& limits_;
  Status& status_;
  std::vector<uint64_t>& seen_;
  std::vector<uint32_t>& keys_;
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  bool string_ascii_ = true;  // the last string read had no byte above 0x7f
  bool budget_in_force_ = false;  // the arena's limit is lowered to the text's budget
  bool over_budget_ = false;      // an allocation went past it
};

}  // namespace hppproto
