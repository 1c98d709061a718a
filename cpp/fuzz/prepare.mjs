// Inputs for the fuzz targets (cpp/fuzz.sh runs this): the schema tables of the test schemas, as
// hppproto-gen encodes them, and seed corpora from the golden files and the benchmark's
// GoogleMessage1 (normal and big strings). A decode seed is one byte naming the message, then its
// payload. Needs `npm run build` first.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { init } from "../../dist/ts/index.js";
import { loadSchema } from "../../dist/codegen/dynamic.js";
import { jsonNamesTable } from "../../dist/ts/json/names.js";
import { schemaTable } from "../../dist/ts/table.js";

const [out] = process.argv.slice(2);
const testdata = path.resolve(import.meta.dirname, "../../testdata");
const golden = `${testdata}/golden`;
const sets = {
  unittest: {
    protoPath: `${testdata}/protos`,
    files: ["google/protobuf/unittest.proto", "google/protobuf/unittest_proto3.proto", "google/protobuf/map_unittest.proto",
      "google/protobuf/unittest_well_known_types.proto", "benchmark_messages_proto2.proto", "benchmark_messages_proto3.proto"],
  },
  conformance: {
    protoPath: `${testdata}/protos/conformance`,
    files: ["google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto",
      "conformance/test_protos/test_messages_edition2023.proto", "editions/golden/test_messages_proto2_editions.proto"],
  },
};

await init();
// the benchmark's message content is TypeScript: bundled once to import it here
const contentJs = `${out}/bench-content.mjs`;
await build({ entryPoints: [path.resolve(import.meta.dirname, "../../bench/suite/content.ts")], bundle: true, format: "esm", outfile: contentJs, logLevel: "error" });
const { gm1, gm1Strings, gm1BigStrings } = await import(pathToFileURL(contentJs).href);
const goldenFiles = readdirSync(golden).filter((f) => f.endsWith(".json"));
for (const [name, set] of Object.entries(sets)) {
  const { schema, types } = loadSchema(set.files.map((f) => `${set.protoPath}/${f}`), [set.protoPath]);
  writeFileSync(`${out}/${name}.table`, schemaTable(schema));
  writeFileSync(`${out}/${name}.names`, jsonNamesTable(schema));
  const corpus = `${out}/corpus-${name}`;
  const jsonCorpus = `${out}/corpus-json-${name}`;
  mkdirSync(corpus, { recursive: true });
  mkdirSync(jsonCorpus, { recursive: true });
  const seed = (type, bytes, label) => {
    const index = schema.messages.findIndex((m) => m.name === type.typeName);
    if (index > 255) return;
    writeFileSync(`${corpus}/${label}`, Buffer.concat([Buffer.from([index]), Buffer.from(bytes)]));
    // and the same message as ProtoJSON, for the JSON reader (json names, then .proto names)
    for (const [suffix, opts] of [["", {}], ["-proto-names", { useProtoNames: true }]]) {
      let text;
      try {
        text = type.toJsonString(type.decode(bytes), opts);
      } catch {
        continue; // a value ProtoJSON cannot hold
      }
      writeFileSync(`${jsonCorpus}/${label}${suffix}`, Buffer.concat([Buffer.from([index]), Buffer.from(text)]));
    }
  };
  let count = 0;
  for (const file of goldenFiles) {
    const json = readFileSync(`${golden}/${file}`, "utf8");
    // each golden message as every type that can take its fields (unknown JSON fields skipped)
    for (const type of types.values()) {
      if (!/TestAllTypes|TestMap|TestPackedTypes|TestWellKnownTypes|GoogleMessage/.test(type.typeName)) continue;
      let bytes;
      try {
        bytes = type.encode(type.fromJsonString(json, { ignoreUnknownFields: true }));
      } catch {
        continue;
      }
      if (bytes.length > 0) seed(type, bytes, `${type.typeName}-${file.replace(/\.json$/, "")}`), count++;
    }
  }
  for (const type of types.values()) {
    if (!type.typeName.endsWith(".GoogleMessage1")) continue;
    seed(type, type.encode(gm1(gm1Strings, BigInt)), `${type.typeName}-bench`), count++;
    seed(type, type.encode(gm1(gm1BigStrings, BigInt)), `${type.typeName}-bench-big`), count++;
  }
  console.log(`fuzz inputs for ${name}: ${schema.messages.length} messages, ${count} seeds`);
}
