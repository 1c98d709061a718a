// Message types built at run time from .proto files: for random messages of every type, decode,
// encode, views, builders and JSON must give exactly what the generated code gives.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { init, type FieldReflection, toJsonString, builder, toJson, fieldsOf } from "hppproto";
import type { MessageModel } from "../dist/codegen/model.js";
import { loadSchema, schemaFromDescriptorSet, schemaFromSources } from "../dist/codegen/dynamic.js";
import { loadProtos, ProtoLoadError } from "../dist/codegen/load.js";
import { descriptorSetOf } from "./support/buf.js";
import { loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { repoRoot, schemaSets, testdata, type SchemaSet } from "./support/paths.js";
import { expectSameBehaviour } from "./support/same.js";

beforeAll(async () => {
  await init();
});

const setsUnderTest: SchemaSet[] = ["unittest", "conformance"];

describe.each(setsUnderTest)("runtime schemas of the %s set", (set) => {
  const loaded = loadSet(set);
  const s = schemaSets[set];
  const dynamic = loadSchema(s.files.map((f) => `${s.protoPath}/${f}`), [s.protoPath]);
  const names = [...loaded.types.keys()].sort();

  it("has every generated message type", () => {
    expect([...dynamic.types.keys()].sort()).toEqual(names);
  });

  it.each(names)("%s: same plain objects, bytes and JSON as the generated type", (typeName) => {
    const model = loaded.models.get(typeName)!;
    if (requiresItself(model)) return;
    const generated = loaded.types.get(typeName)!;
    const runtime = dynamic.types.get(typeName)!;
    const pbType = loaded.pbType(typeName);
    const r = rng(typeName.length * 7919 + 11);
    const samples = Array.from({ length: 10 }, () => pbType.encode(pbType.fromObject(randomObject(loaded, model, r))).finish());
    expectSameBehaviour(generated, runtime, samples, r);
  });
});

describe.each(setsUnderTest)("runtime schemas from the %s set's .proto sources in memory (as browsers load them)", (set) => {
  const loaded = loadSet(set);
  const s = schemaSets[set];
  // every file the set reads, by import name, as text (protobufjs's built-in well-known types aside)
  const sources: Record<string, string> = {};
  for (const [file, name] of loadProtos(s.files.map((f) => `${s.protoPath}/${f}`), [s.protoPath]).importNames) {
    if (file !== name) sources[name] = readFileSync(file, "utf8");
  }
  const fromSources = schemaFromSources(sources, s.files);
  const names = [...loaded.types.keys()].sort();

  it("has every generated message type", () => {
    expect([...fromSources.types.keys()].sort()).toEqual(names);
  });

  it.each(names)("%s: same plain objects, bytes and JSON as the generated type", (typeName) => {
    const model = loaded.models.get(typeName)!;
    if (requiresItself(model)) return;
    const r = rng(typeName.length * 7919 + 13);
    const pbType = loaded.pbType(typeName);
    const samples = Array.from({ length: 5 }, () => pbType.encode(pbType.fromObject(randomObject(loaded, model, r))).finish());
    expectSameBehaviour(loaded.types.get(typeName)!, fromSources.types.get(typeName)!, samples, r);
  });
});

describe("runtime schemas from .proto sources: bad input", () => {
  it("a missing import, a syntax error and an unknown type are placed name:line:col; a file not among the sources is named", () => {
    const message = (sources: Record<string, string>, files?: string[]) => {
      try {
        schemaFromSources(sources, files);
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    expect(message({ "a.proto": 'syntax = "proto3";\nimport "b.proto";\n' })).toBe('a.proto:2:8: import "b.proto" is not among the sources');
    expect(message({ "a.proto": 'syntax = "proto3";\nmessage M {\n  int32 x = 1\n}\n' })).toMatch(/^a\.proto:4:1: /);
    expect(message({ "a.proto": 'syntax = "proto3";\nmessage M { Missing m = 1; }\n' })).toBe("a.proto:2:13: unknown type Missing");
    expect(message({ "a.proto": 'syntax = "proto3";' }, ["z.proto"])).toBe("z.proto: not among the sources");
    // built-in well-known types need no source
    const { types } = schemaFromSources({ "w.proto": 'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\nmessage W { google.protobuf.Timestamp at = 1; }\n' });
    expect(toJson(types.get("W")!, types.get("W")!.decode(types.get("W")!.encode({ at: { seconds: 1n, nanos: 0 } })))).toEqual({ at: "1970-01-01T00:00:01Z" });
  });
});

describe("runtime schemas from .proto sources: hostile input", () => {
  it("errors quote only the start of a name or token 128 K long, and never fail on it themselves", () => {
    const word = "k".repeat(1 << 17); // (from about 50,000 characters, a pattern of it is too large to compile)
    for (const source of [
      `syntax = "proto3";\nmessage A { int32 x = 1; }\n${word}`, // an illegal token
      `syntax = "proto3";\nmessage A { ${word} x = 1; }\n`, // an unknown type
      `syntax = "proto3";\nmessage A { int32 ${word} = 1; int32 ${word} = 2; }\n`, // a name given twice
      `syntax = "proto3";\nimport "${word}";\n`,
      `syntax = "proto3";\nmessage A { int32 x = 1 [(${word}) = 1]; }\n`,
    ]) {
      const e = (() => { try { schemaFromSources({ "a.proto": source }); } catch (x) { return x; } })();
      expect(e, source.slice(0, 40)).toBeInstanceOf(ProtoLoadError);
      expect((e as Error).message.length, source.slice(0, 40)).toBeLessThan(300);
    }
    // a default of a field with such a name is looked for without a pattern the size of the name
    const { types } = schemaFromSources({ "d.proto": `syntax = "proto2";\nmessage A { optional int64 ${word} = 1 [default = 5]; }\n` });
    expect((types.get("A")!.view(new Uint8Array()) as unknown as Record<string, unknown>)[word]).toBe(5n);
  });
});

describe.each(setsUnderTest)("runtime schemas from buf's FileDescriptorSet of the %s set", (set) => {
  const loaded = loadSet(set);
  const fromSet = schemaFromDescriptorSet(descriptorSetOf(set));
  // buf's copies of the well-known types are newer than protobufjs's (Api, Type and Enum have an
  // edition field more): messages that hold them are left out here (reflect.test.ts compares
  // those field by field)
  const newer = /^google\.protobuf\.(Api|Type|Enum|Method)$/; // (Method: its Syntax enum has SYNTAX_EDITIONS more)
  const holdsNewer = (m: MessageModel, seen = new Set<MessageModel>()): boolean => {
    if (newer.test(m.fullName)) return true;
    if (seen.has(m)) return false;
    seen.add(m);
    return m.fields.some((f) => (f.message && holdsNewer(f.message, seen)) || (f.mapEntry && holdsNewer(f.mapEntry, seen)));
  };
  const names = [...loaded.types.keys()].filter((n) => !holdsNewer(loaded.models.get(n)!)).sort();
  const shape = (fields: readonly FieldReflection[]) => fields.map((f) => ({ ...f, enum: f.enum && { typeName: f.enum.typeName, closed: f.enum.closed, values: f.enum.values } }));

  it("has every generated message type, with the same fields", () => {
    for (const n of loaded.types.keys()) expect(fromSet.types.has(n), n).toBe(true);
    for (const n of names) expect(shape(fieldsOf(fromSet.types.get(n)!)), n).toEqual(shape(fieldsOf(loaded.types.get(n)!)));
  });

  it("decodes, encodes and writes JSON as the generated types do", () => {
    for (const typeName of names) {
      const model = loaded.models.get(typeName)!;
      if (requiresItself(model)) continue;
      const pbType = loaded.pbType(typeName);
      const r = rng(typeName.length * 104729 + 3);
      const samples = Array.from({ length: 4 }, () => pbType.encode(pbType.fromObject(randomObject(loaded, model, r))).finish());
      expectSameBehaviour(loaded.types.get(typeName)!, fromSet.types.get(typeName)!, samples, r);
    }
  });
});

describe("hppproto/codegen in a browser bundle", () => {
  it("has FileDescriptorSets and .proto sources and no Node module, and the bundle makes working message types", async () => {
    const result = await esbuild.build({
      stdin: { contents: 'export { schemaFromDescriptorSet, schemaFromSources } from "hppproto/codegen"; export { init, Registry } from "hppproto";', resolveDir: repoRoot, loader: "js" },
      bundle: true, platform: "browser", format: "esm", write: false, metafile: true, logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((i) => i.startsWith("node:") || /codegen\/(dynamic|load)\.js$/.test(i))).toEqual([]);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "hppproto-browser-")), "bundle.mjs");
    writeFileSync(file, result.outputFiles[0]!.contents);
    const bundle = await import(file);
    await bundle.init();
    const { types } = bundle.schemaFromDescriptorSet(descriptorSetOf("conformance"));
    const T = types.get("protobuf_test_messages.proto3.TestAllTypesProto3");
    const bytes = T.encode({ optionalString: "hé", repeatedInt64: [1n, -2n], mapStringForeignMessage: { k: { c: 3 } } });
    expect(toJsonString(T, T.view(bytes))).toBe('{"optionalString":"hé","repeatedInt64":["1","-2"],"mapStringForeignMessage":{"k":{"c":3}}}');
    const fromSources = bundle.schemaFromSources({ "p.proto": 'syntax = "proto3";\npackage p;\nmessage M { repeated int64 v = 1; }\n' }).types.get("p.M");
    expect(toJsonString(fromSources, fromSources.decode(fromSources.encode({ v: [5n] })))).toBe('{"v":["5"]}');
  });
});

describe("runtime views", () => {
  const s = schemaSets.unittest;
  const { types } = loadSchema([`${s.protoPath}/google/protobuf/unittest_proto3.proto`], [s.protoPath]);
  const T = types.get("proto3_unittest.TestAllTypes")!;

  it("read each field as the plain object holds it, and go stale with their arena", () => {
    const bytes = T.encode({ optionalInt32: 7, repeatedString: ["a", "b"], oneofField: { case: "oneofString", value: "x" } } as never);
    const v = T.view(bytes) as unknown as Record<string, unknown>;
    expect(v["optionalInt32"]).toBe(7);
    expect((v["repeatedString"] as { toArray(): string[] }).toArray()).toEqual(["a", "b"]);
    expect(v["oneofField"]).toEqual({ case: "oneofString", value: "x" });
    T.view(new Uint8Array(0)); // the default view arena is reset
    expect(() => v["optionalInt32"]).toThrow(/reset/);
  });

  it("builders set, append, clear and encode as generated builders do", () => {
    const b = builder(T) as unknown as Record<string, (...a: unknown[]) => Record<string, unknown>> & Record<string, unknown>;
    b["optionalInt32"] = 5;
    b["addRepeatedString"]!("a");
    b["addRepeatedString"]!("b");
    b["mutableOptionalNestedMessage"]!()["bb"] = 9;
    b["addRepeatedNestedMessage"]!()["bb"] = 1;
    b["oneofField"] = { case: "oneofUint32", value: 3 };
    expect(T.decode(T.encode(b as never))).toMatchObject({
      optionalInt32: 5, repeatedString: ["a", "b"], optionalNestedMessage: { bb: 9 }, repeatedNestedMessage: [{ bb: 1 }],
      oneofField: { case: "oneofUint32", value: 3 },
    });
    expect(b["optionalInt32"]).toBe(5);
    b["optionalInt32"] = undefined;
    b["oneofField"] = undefined;
    expect(T.decode(T.encode(b as never))).toMatchObject({ optionalInt32: 0, oneofField: undefined });
    (b["$clear"] as () => void)();
    expect(T.encode(b as never)).toEqual(new Uint8Array(0));
    (b["$release"] as () => void)();
    expect(() => b["optionalInt32"]).toThrow(/\$release/);
  });

  it("golden files decode as with generated code", () => {
    const dir = `${testdata}/golden`;
    const { types: all } = loadSchema(schemaSets.unittest.files.map((f) => `${s.protoPath}/${f}`), [s.protoPath]);
    const loaded = loadSet("unittest");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".binpb"))) {
      const typeName = file.replace(/\.binpb$/, "");
      const bytes = new Uint8Array(readFileSync(`${dir}/${file}`));
      expect(all.get(typeName)!.decode(bytes)).toEqual(loaded.types.get(typeName)!.decode(bytes));
    }
  });
});

