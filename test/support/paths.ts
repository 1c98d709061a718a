import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const testdata = fileURLToPath(new URL("../../testdata", import.meta.url));
export const protos = `${testdata}/protos`;
export const conformanceProtos = `${protos}/conformance`;
export const genDir = fileURLToPath(new URL("../gen", import.meta.url));
const testProtos = fileURLToPath(new URL("../protos", import.meta.url));

/** The schema sets the tests generate code for: output folder, include path, files. */
export const schemaSets = {
  unittest: {
    protoPath: protos,
    files: [
      "google/protobuf/unittest.proto", "google/protobuf/unittest_proto3.proto", "google/protobuf/map_unittest.proto",
      "google/protobuf/unittest_lite.proto", "google/protobuf/unittest_well_known_types.proto",
      "google/protobuf/any_test.proto", "benchmark_messages_proto2.proto", "benchmark_messages_proto3.proto",
      "packed_repeated_message.proto",
    ],
  },
  conformance: {
    protoPath: conformanceProtos,
    files: [
      "google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto",
      "conformance/test_protos/test_messages_edition2023.proto", "editions/golden/test_messages_proto2_editions.proto",
      "editions/golden/test_messages_proto3_editions.proto",
    ],
  },
  names: { protoPath: testProtos, files: ["names.proto", "names_props.proto", "names_reserved.proto", "names_rpc.proto", "limits.proto"] },
  custom_options: { protoPath: testProtos, files: ["custom_options.proto", "custom_options_other.proto"] },
  rpc: { protoPath: testProtos, files: ["rpc.proto"] },
  // hppproto-gen's output options, each on the same schema
  wide: { protoPath: testProtos, files: ["wide.proto"] },
  wide_string: { protoPath: testProtos, files: ["wide.proto"], options: { int64: "string" } },
  wide_number: { protoPath: testProtos, files: ["wide.proto"], options: { int64: "number" } },
  wide_views: { protoPath: testProtos, files: ["wide.proto"], options: { facades: ["views"] } },
  wide_plain: { protoPath: testProtos, files: ["wide.proto"], options: { facades: ["plain"] } },
  wide_builders: { protoPath: testProtos, files: ["wide.proto"], options: { facades: ["builders"] } },
  wide_js: { protoPath: testProtos, files: ["wide.proto"], options: { target: "js" } },
  // optimize_for = CODE_SIZE: whole sets interpreted from the schema, and one file of a set
  conformance_code_size: {
    protoPath: conformanceProtos,
    files: ["google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto", "editions/golden/test_messages_proto2_editions.proto"],
    options: { optimizeFor: "code_size" },
  },
  unittest_code_size: {
    protoPath: protos,
    files: ["google/protobuf/unittest.proto", "google/protobuf/unittest_proto3.proto", "google/protobuf/map_unittest.proto"],
    options: { optimizeFor: "code_size" },
  },
  names_code_size: { protoPath: testProtos, files: ["names.proto", "names_props.proto", "names_reserved.proto", "names_rpc.proto", "limits.proto"], options: { optimizeFor: "code_size" } },
  wide_code_size_string: { protoPath: testProtos, files: ["wide.proto"], options: { optimizeFor: "code_size", int64: "string" } },
  wide_code_size_number: { protoPath: testProtos, files: ["wide.proto"], options: { optimizeFor: "code_size", int64: "number", target: "js" } },
  code_size_mixed: { protoPath: testProtos, files: ["codesize_base.proto", "codesize_slow.proto", "codesize_top.proto"] },
  code_size_mixed_speed: { protoPath: testProtos, files: ["codesize_base.proto", "codesize_slow.proto", "codesize_top.proto"], options: { optimizeFor: "speed" } },
} as const;
export type SchemaSet = keyof typeof schemaSets;
