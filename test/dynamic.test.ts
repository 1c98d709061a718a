// Message types built at run time from .proto files: for random messages of every type, decode,
// encode, views and JSON must give exactly what the generated code gives.
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { init, JsonError } from "hppproto";
import { loadSchema } from "../dist/codegen/dynamic.js";
import { loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { schemaSets, testdata, type SchemaSet } from "./support/paths.js";
import { thrown } from "./support/thrown.js";

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
    for (let i = 0; i < 10; i++) {
      const bytes = pbType.encode(pbType.fromObject(randomObject(loaded, model, r))).finish();
      const plain = generated.decode(bytes);
      expect(runtime.decode(bytes)).toEqual(plain);
      expect(runtime.encode(plain)).toEqual(generated.encode(plain));
      expect(runtime.encode(runtime.view(bytes))).toEqual(generated.encode(plain));
      expect(runtime.view(bytes).$toObject()).toEqual(plain);
      let json: string | undefined;
      try {
        json = generated.toJsonString(plain);
      } catch (e) {
        // values JSON cannot hold (an Any of an unknown type, a timestamp out of range): the
        // schema-driven writer and the generated one fail alike, at the same path
        const [code, path] = thrown(() => runtime.toJsonString(plain), JsonError);
        expect(e).toMatchObject({ code, path });
        continue;
      }
      expect(runtime.toJsonString(plain)).toBe(json);
      expect(runtime.fromJsonString(json)).toEqual(generated.fromJsonString(json));
      // JSON the message cannot take, one field spoiled at a time (at the top or one level down),
      // and JSON it can (proto names, ignored unknown keys): the generated reader and the
      // schema-driven one agree on the result, or on the error's code and path
      const parsed: unknown = JSON.parse(json);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) continue; // well-known types written as scalars
      for (const [k, spoiled] of spoil(parsed as Record<string, unknown>, r)) {
        const text = JSON.stringify(spoiled);
        for (const opts of [{}, { ignoreUnknownFields: true }]) {
          let want: unknown;
          try {
            want = runtime.fromJsonString(text, opts);
          } catch (e) {
            const [code, path] = thrown(() => generated.fromJsonString(text, opts), (e as object).constructor as typeof JsonError);
            expect({ code, path }, `${k}: ${text}`).toMatchObject({ code: (e as JsonError).code, path: (e as JsonError).path });
            continue;
          }
          expect(generated.fromJsonString(text, opts), `${k}: ${text}`).toEqual(want);
        }
      }
    }
  });
});

const spoilers: unknown[] = [null, "x", -1, 1.5, 2 ** 40, "9".repeat(30), true, [], [null], [1, "y"], {}, { "": 1 }, { bogus: [] }, "AQ==", "NaN", "1e3"];

/** Copies of a message's JSON object, each with one value replaced by something of another shape. */
function* spoil(obj: Record<string, unknown>, r: () => number): Generator<[string, Record<string, unknown>]> {
  const keys = Object.keys(obj);
  yield ["unknown key", { ...obj, notAField: 1 }];
  for (const k of keys.slice(0, 6)) {
    yield [k, { ...obj, [k]: spoilers[Math.floor(r() * spoilers.length)] }];
    const v = obj[k];
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner = Object.keys(v as object);
      if (inner.length > 0) yield [`${k}.${inner[0]}`, { ...obj, [k]: { ...(v as object), [inner[0]!]: spoilers[Math.floor(r() * spoilers.length)] } }];
    }
    if (Array.isArray(v) && v.length > 0) yield [`${k}[0]`, { ...obj, [k]: [spoilers[Math.floor(r() * spoilers.length)], ...v.slice(1)] }];
  }
}

describe("runtime views", () => {
  const s = schemaSets.unittest;
  const { types } = loadSchema([`${s.protoPath}/google/protobuf/unittest_proto3.proto`], [s.protoPath]);
  const T = types.get("proto3_unittest.TestAllTypes")!;

  it("read each field as the plain object holds it, and go stale with their arena", () => {
    const bytes = T.encode({ optionalInt32: 7, repeatedString: ["a", "b"], oneofField: { case: "oneofString", value: "x" } } as never);
    const v = T.view(bytes) as unknown as Record<string, unknown>;
    expect(v["optionalInt32"]).toBe(7);
    expect(v["repeatedString"]).toEqual(["a", "b"]);
    expect(v["oneofField"]).toEqual({ case: "oneofString", value: "x" });
    T.view(new Uint8Array(0)); // the default view arena is reset
    expect(() => v["optionalInt32"]).toThrow(/reset/);
  });

  it("builders are generated code only", () => {
    expect(() => T.builder()).toThrow(/generated code/);
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
