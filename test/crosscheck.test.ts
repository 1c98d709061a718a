// hppproto against protobufjs, the independent reference: the same bytes decoded by both and
// compared field by field, for every message of the test schemas, the golden files and
// GoogleMessage1 as hpp-proto's benchmark fills it.
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { init } from "hppproto";
import { crossCheck, encodeWithProtobufjs, loadSet, randomObject, requiresItself, rng, withoutUnknown, type Loaded } from "./support/protos.js";
import { testdata } from "./support/paths.js";

beforeAll(async () => {
  await init();
});

const sets = { unittest: loadSet("unittest"), conformance: loadSet("conformance") };

describe.each(Object.entries(sets))("every message of the %s schemas", (_name, loaded: Loaded) => {
  const names = [...loaded.types.keys()].sort();
  it("has generated types to test", () => {
    expect(names.length).toBeGreaterThan(20);
  });
  it.each(names)("%s: 25 random messages decode as protobufjs decodes them", (typeName) => {
    const model = loaded.models.get(typeName)!;
    if (requiresItself(model)) {
      // no valid instance exists (protobufjs cannot encode one): both must reject what they get
      crossCheck(loaded, typeName, new Uint8Array(0));
      return;
    }
    const r = rng(typeName.length * 7919 + 17);
    for (let i = 0; i < 25; i++) {
      const bytes = encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r));
      crossCheck(loaded, typeName, bytes);
    }
  });
});

describe("golden files", () => {
  const dir = `${testdata}/golden`;
  const files = readdirSync(dir).filter((f) => f.endsWith(".binpb"));
  it.each(files)("%s decodes as protobufjs decodes it", (file) => {
    const typeName = file.replace(/\.binpb$/, "");
    const bytes = new Uint8Array(readFileSync(`${dir}/${file}`));
    crossCheck(sets.unittest, typeName, bytes);
  });
});

describe("GoogleMessage1 (hpp-proto's benchmark set_message)", () => {
  const content = {
    field1: "", field2: 8, field3: 2066379, field4: "3K+6)#",
    field9: "10)2uiSuoXL1^)v}icF@>P(j<t#~tz\\lg??S&(<hr7EVs'l{'5`Gohc_(=t eS s{_I?iCwaG]L'*Pu5(&w_:4{~Z",
    field12: true, field14: true,
    field15: { field1: 25, field2: 36, field15: "\"?6PY4]L2c<}~2;\\TVF_w^[@YfbIc*v/N+Z-oYuaWZr4C;5ib|*s@RCBbuvrQ3g(k,N",
      field21: "2813090458170031956", field22: 38, field23: true },
    field18: "{=Qwfe~#n{", field67: 1591432, field100: 31,
  };
  it.each(["benchmarks.proto2.GoogleMessage1", "benchmarks.proto3.GoogleMessage1"])("%s", (typeName) => {
    const loaded = sets.unittest;
    const bytes = encodeWithProtobufjs(loaded, typeName, content);
    crossCheck(loaded, typeName, bytes);
    const view = loaded.types.get(typeName)!.view(bytes);
    expect(view.field9).toBe(content.field9);
    expect(view.field15.field21).toBe(2813090458170031956n);
    expect(view.field15.field15).toBe(content.field15.field15);
    expect(view.field67).toBe(1591432);
    if (typeName.includes("proto2")) {
      // proto2 defaults apply to absent fields in views; plain objects leave them undefined
      expect(view.field5).toHaveLength(0);
      expect(view.$has("field80")).toBe(false);
      expect(view.field80).toBe(false);
      expect(view.field6).toBe(0);
      expect(loaded.types.get(typeName)!.decode(bytes).field80).toBeUndefined();
    }
  });
});

describe("packed and expanded encodings are both accepted", () => {
  it("TestPackedTypes bytes decode as TestUnpackedTypes and back", () => {
    const loaded = sets.unittest;
    for (const [from, to] of [
      ["protobuf_unittest.TestPackedTypes", "protobuf_unittest.TestUnpackedTypes"],
      ["protobuf_unittest.TestUnpackedTypes", "protobuf_unittest.TestPackedTypes"],
    ] as const) {
      const r = rng(99);
      for (let i = 0; i < 10; i++) {
        const obj = randomObject(loaded, loaded.models.get(from)!, r);
        const bytes = encodeWithProtobufjs(loaded, from, obj);
        const decodedFrom = withoutUnknown(loaded.types.get(from)!.decode(bytes)) as Record<string, unknown>;
        const decodedTo = withoutUnknown(loaded.types.get(to)!.decode(bytes)) as Record<string, unknown>;
        expect(Object.values(decodedTo)).toEqual(Object.values(decodedFrom));
      }
    }
  });
});
