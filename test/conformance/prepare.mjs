// Generates the conformance schemas (the runner's protocol plus the test messages) with
// hppproto-gen and turns the TypeScript into JavaScript next to it, so the testee runs under
// plain Node. Needs `npm run build` first (dist/codegen).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
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

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (name.endsWith(".ts")) yield p;
  }
}

export function prepare() {
  generate({
    files: protoFiles.map((f) => path.join(protoPath, f)),
    out: genDir,
    protoPaths: [protoPath],
    runtimeImport: "hppproto",
  });
  for (const file of tsFiles(genDir)) {
    const { code } = transformSync(readFileSync(file, "utf8"), { loader: "ts", format: "esm", target: "es2022" });
    writeFileSync(file.replace(/\.ts$/, ".js"), code);
  }
}
