// The text format against protoc's own (Debian's protobuf-compiler): what protoc --decode prints,
// fromText reads as the message it is; what toText prints, protoc --encode reads as the same
// message. Golden files and random messages of protobuf's unittest schemas, both ways.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { fromText, init, toText } from "hppproto";
import { encodeWithProtobufjs, loadSet, randomObject, rng, withoutUnknown } from "../support/protos.js";
import { conformanceProtos, protos, testdata } from "../support/paths.js";
import { needProtoc } from "../support/protoc.js";

beforeAll(async () => {
  await init();
});

const loaded = loadSet("unittest");

function protoc(mode: "--decode" | "--encode", typeName: string, input: Uint8Array | string): Uint8Array {
  needProtoc();
  const file = loaded.models.get(typeName)!.file;
  // the well-known types from the conformance schemas' copies
  const r = spawnSync("protoc", [`${mode}=${typeName}`, `-I${protos}`, `-I${conformanceProtos}`, file], { input, cwd: protos });
  expect(r.stderr.toString(), `protoc ${mode}=${typeName}`).toBe("");
  expect(r.status).toBe(0);
  return new Uint8Array(r.stdout);
}

/** Both ways through protoc for one message's bytes. */
function expectAgreement(typeName: string, bytes: Uint8Array) {
  const type = loaded.types.get(typeName)!;
  const plain = withoutUnknown(type.decode(bytes));
  const theirs = new TextDecoder().decode(protoc("--decode", typeName, bytes));
  expect(withoutUnknown(fromText(type, theirs)), theirs).toEqual(plain);
  const ours = toText(type, type.decode(bytes));
  expect(withoutUnknown(type.decode(protoc("--encode", typeName, ours))), ours).toEqual(plain);
}

describe("text format against protoc", () => {
  const dir = `${testdata}/golden`;
  // the Lite types' file is an editions file, which Debian's protoc (3.21) predates
  const golden = readdirSync(dir).filter((f) => f.endsWith(".binpb") && !f.includes("Lite")).map((f) => f.replace(/\.binpb$/, ""));
  it.each(golden)("%s: the golden message through protoc --decode and --encode", (typeName) => {
    expectAgreement(typeName, new Uint8Array(readFileSync(`${dir}/${typeName}.binpb`)));
  });

  it.each(["protobuf_unittest.TestAllTypes", "proto3_unittest.TestAllTypes", "protobuf_unittest.TestMap", "protobuf_unittest.TestAllExtensions"])(
    "%s: 20 random messages through protoc --decode and --encode",
    (typeName) => {
      const r = rng(typeName.length * 31 + 5);
      for (let i = 0; i < 20; i++) expectAgreement(typeName, encodeWithProtobufjs(loaded, typeName, randomObject(loaded, loaded.models.get(typeName)!, r)));
    },
  );
});
