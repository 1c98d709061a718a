// Generates the conformance schemas (the runner's protocol plus the test messages) as JavaScript
// with hppproto-gen --target js, so the testee runs under plain Node. Needs `npm run build` first
// (dist/codegen).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../../dist/codegen/cli.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const genDir = path.join(here, "gen");
const protoPath = path.join(here, "../../../shared/testdata/protos/conformance");
export const protoFiles = [
  "conformance/conformance.proto",
  "google/protobuf/test_messages_proto2.proto",
  "google/protobuf/test_messages_proto3.proto",
  "conformance/test_protos/test_messages_edition2023.proto",
  "conformance/test_protos/test_messages_edition_unstable.proto",
  "editions/golden/test_messages_proto2_editions.proto",
  "editions/golden/test_messages_proto3_editions.proto",
];

export function prepare() {
  generate({
    files: protoFiles.map((f) => path.join(protoPath, f)),
    out: genDir,
    protoPaths: [protoPath],
    target: "js", // plain Node runs it as it is
  });
}
