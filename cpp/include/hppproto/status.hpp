// What went wrong, where: an error code, the byte offset in the input, and the field path
// (innermost last) that led there.
#pragma once
#include <cstdint>

namespace hppproto {

enum class Error : uint32_t {
  ok = 0,
  truncated = 1,            // input ends inside a value, tag or length
  varint_overlong = 2,      // more than 10 bytes, or bits past 64
  invalid_field_number = 3, // field number 0 or above 2^29-1
  invalid_wire_type = 4,    // wire type 6 or 7
  wire_type_mismatch = 5,   // no longer raised: such a field is kept as an unknown field (the number stays reserved)
  length_out_of_bounds = 6, // a length-delimited field runs past its enclosing message
  invalid_utf8 = 7,         // a string field that requires UTF-8 does not hold it
  unterminated_group = 8,   // input ended before a group's end tag
  unmatched_end_group = 9,  // an end-group tag with no group open, or for another field
  depth_limit = 10,         // nesting deeper than the configured limit
  missing_required = 11,    // a proto2 required field is absent
  out_of_memory = 12,       // the arena limit was reached or memory could not grow
  message_too_large = 13,   // input longer than the configured maximum
  packed_length = 14,       // a packed fixed-width run whose length is not a multiple of the width
  invalid_schema = 15,      // the schema table failed validation
  too_many_elements = 16,   // a repeated field passed the configured element limit
  memory_budget = 17,       // the decoded form would take more memory than the input allows
};

struct PathEntry {
  uint32_t message_index;  // the message whose field this is
  uint32_t field_number;
  int32_t element_index;   // position within a repeated field, -1 for singular fields
};

struct Status {
  static constexpr uint32_t max_path = 64;
  Error code = Error::ok;
  uint32_t offset = 0;          // byte offset in the input (for schemas: in the table)
  uint32_t path_size = 0;       // entries filled in path, outermost first after finish()
  uint32_t path_truncated = 0;  // 1 if the path was deeper than max_path
  uint32_t detail = 0;          // code-specific: the field number or limit involved
  PathEntry path[max_path];

  void clear() noexcept {
    code = Error::ok;
    offset = 0;
    path_size = 0;
    path_truncated = 0;
    detail = 0;
  }
  bool fail(Error e, uint32_t at, uint32_t info = 0) noexcept {
    code = e;
    offset = at;
    detail = info;
    path_size = 0;
    path_truncated = 0;
    return false;
  }
  // Called while unwinding, innermost frame first.
  void push_frame(uint32_t message_index, uint32_t field_number, int32_t element_index) noexcept {
    if (path_size == max_path) {
      // keep the outermost frames, which say where in the top-level message the problem lies
      for (uint32_t i = 1; i < max_path; ++i) path[i - 1] = path[i];
      path_truncated = 1;
      --path_size;
    }
    path[path_size++] = PathEntry{message_index, field_number, element_index};
  }
  // Frames were pushed innermost first; present them outermost first.
  void finish() noexcept {
    for (uint32_t i = 0, j = path_size; i + 1 < j; ++i, --j) {
      const PathEntry t = path[i];
      path[i] = path[j - 1];
      path[j - 1] = t;
    }
  }
};

}  // namespace hppproto
