// Message types built at run time from .proto files: for random messages of every type, decode,
// encode, views, builders and JSON must give exactly what the generated code gives.
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { init } from "hppproto";
import { loadSchema } from "../dist/codegen/dynamic.js";
import { loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { schemaSets, testdata, type SchemaSet } from "./support/paths.js";
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
    const b = T.builder() as unknown as Record<string, (...a: unknown[]) => Record<string, unknown>> & Record<string, unknown>;
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

