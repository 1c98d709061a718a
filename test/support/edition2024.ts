// A .proto file of edition 2024, for the generator and the protoc plugin alike.

/** An edition 2024 file: symbol visibility, an option import, 2024's naming style. */
export const EDITION_2024 = `edition = "2024";
package e24;
import option "google/protobuf/descriptor.proto";
option features.enforce_naming_style = STYLE2024;
export message Outer {
  local message Inner { int32 x = 1; }
  Inner inner = 1;
  string s = 2;
  repeated int32 nums = 3;
  Kind kind = 4;
}
local enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }
`;

/**
 * Two edition 2024 files: opts.proto declares custom options (and holds nothing else), use.proto
 * uses them on every kind of declaration through `import option`, which makes opts.proto no
 * dependency of it.
 */
export const OPTION_IMPORT_2024 = {
  "opts.proto": `edition = "2024";
package a;
import "google/protobuf/descriptor.proto";
extend google.protobuf.FileOptions { string file_tag = 50001; }
extend google.protobuf.MessageOptions { int32 msg_level = 50002; }
extend google.protobuf.FieldOptions { repeated string field_tags = 50003; }
extend google.protobuf.EnumOptions { bool enum_flag = 50004; }
extend google.protobuf.EnumValueOptions { int64 value_weight = 50005; }
`,
  "use.proto": `edition = "2024";
package b;
import option "opts.proto";
option (a.file_tag) = "tagged";
message M {
  option (a.msg_level) = 3;
  string name = 1 [(a.field_tags) = "x", (a.field_tags) = "y"];
  int32 plain = 2;
  E kind = 3;
}
enum E {
  option (a.enum_flag) = true;
  E_UNSPECIFIED = 0 [(a.value_weight) = 9007199254740993];
  E_OTHER = 1;
}
`,
} as const;
