// The schema sets the fuzzers that compare two decoders run on: [include path, files] by name.
import path from "node:path";

export function fuzzSets(root) {
  const protos = path.join(root, "testdata/protos");
  return {
    conformance: [path.join(protos, "conformance"), [
      "google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto",
      "conformance/test_protos/test_messages_edition2023.proto", "editions/golden/test_messages_proto2_editions.proto",
      "editions/golden/test_messages_proto3_editions.proto",
    ]],
    unittest: [protos, [
      "google/protobuf/unittest.proto", "google/protobuf/unittest_proto3.proto", "google/protobuf/map_unittest.proto",
      "google/protobuf/unittest_well_known_types.proto", "benchmark_messages_proto2.proto", "benchmark_messages_proto3.proto",
    ]],
    bench: [path.join(root, "bench/protos"), ["tick.proto", "tile.proto", "span.proto", "arrays.proto"]],
  };
}
