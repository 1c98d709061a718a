import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const shared = fileURLToPath(new URL("../../../shared/testdata", import.meta.url));
export const protos = `${shared}/protos`;
export const conformanceProtos = `${protos}/conformance`;
export const genDir = fileURLToPath(new URL("../gen", import.meta.url));

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
  names: {
    protoPath: fileURLToPath(new URL("../protos", import.meta.url)),
    files: ["names.proto", "names_reserved.proto", "limits.proto"],
  },
} as const;
export type SchemaSet = keyof typeof schemaSets;
