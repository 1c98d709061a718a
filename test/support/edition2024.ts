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
