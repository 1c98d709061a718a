// A .proto file of custom options only (extend declarations, no options of its own), and a file
// that sets them: the first gets a module (its extensions) from hppproto-gen and the protoc plugin.

export const OPTIONS_ONLY = `syntax = "proto3";
package opt;
import "google/protobuf/descriptor.proto";
extend google.protobuf.FileOptions { string file_note = 50100; }
extend google.protobuf.MessageOptions { repeated int32 weights = 50101; }
`;

/** A file that sets the options of OPTIONS_ONLY (as opt.proto). */
export const OPTIONS_USED = `syntax = "proto3";
package use;
import "opt.proto";
option (opt.file_note) = "used";
message W { option (opt.weights) = 7; option (opt.weights) = 8; int32 x = 1; }
`;
