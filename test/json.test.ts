// ProtoJSON: the golden files both ways, and the mapping rules one by one.
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { anyPack, anyUnpack, EncodeError, fromText, init, JsonError, Registry, toText, toJson, toJsonString, fromJson, fromJsonString, encodeFromJsonString } from "hppproto";
import { schemaFromDescriptorSet } from "../dist/codegen/dynamic.js";
import { descriptorSetOf } from "./support/buf.js";
import { loadSet } from "./support/protos.js";
import { testdata } from "./support/paths.js";
import { thrown } from "./support/thrown.js";
import * as p3 from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";

beforeAll(async () => {
  await init();
});

const loaded = loadSet("unittest");

describe("golden files", () => {
  const dir = `${testdata}/golden`;
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  it.each(files)("%s: equals our JSON of the .binpb, and parses back to the same message", (file) => {
    const typeName = file.replace(/\.json$/, "");
    const type = loaded.types.get(typeName)!;
    const bytes = new Uint8Array(readFileSync(`${dir}/${typeName}.binpb`));
    const text = readFileSync(`${dir}/${file}`, "utf8");
    expect(toJson(type, type.decode(bytes))).toEqual(JSON.parse(text));
    expect(toJson(type, type.view(bytes))).toEqual(JSON.parse(text));
    expect(type.encode(fromJsonString(type, text))).toEqual(type.encode(type.decode(bytes)));
  });
});

describe("mapping rules", () => {
  const T = p3.TestAllTypes;
  const err = (fn: () => unknown) => thrown(fn, JsonError);

  it("64-bit integers are strings out, strings or exact numbers in", () => {
    expect(toJson(T, { optionalInt64: -5n, optionalUint64: 18446744073709551615n } as never)).toMatchObject({ optionalInt64: "-5", optionalUint64: "18446744073709551615" });
    expect(fromJsonString(T, '{"optionalInt64": 9223372036854775807, "optionalUint64": "18446744073709551615"}')).toMatchObject({ optionalInt64: 9223372036854775807n, optionalUint64: 18446744073709551615n });
    expect(fromJsonString(T, '{"optionalInt32": 1e2, "optionalUint32": "7", "optionalSint32": -3.0}')).toMatchObject({ optionalInt32: 100, optionalUint32: 7, optionalSint32: -3 });
    expect(err(() => fromJsonString(T, '{"optionalInt32": 1.5}'))).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.optionalInt32"]);
    expect(err(() => fromJsonString(T, '{"optionalInt32": 2147483648}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => fromJsonString(T, '{"optionalUint64": "-1"}'))[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("floats: shortest form out, NaN and infinities as strings, range-checked in", () => {
    expect(toJson(T, { optionalFloat: Math.fround(1.1), optionalDouble: NaN } as never)).toMatchObject({ optionalFloat: 1.1, optionalDouble: "NaN" });
    expect(fromJsonString(T, '{"optionalDouble": "-Infinity", "optionalFloat": "1.5"}')).toMatchObject({ optionalDouble: -Infinity, optionalFloat: 1.5 });
    expect(err(() => fromJsonString(T, '{"optionalFloat": 3.5e38}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    // the largest float prints as 3.4028235e+38 (shortest form), a little above it as a double
    const max = Math.fround(3.4028235e38);
    expect(toJsonString(T, { optionalFloat: max } as never)).toBe('{"optionalFloat":3.4028235e+38}');
    expect(fromJsonString(T, '{"optionalFloat": 3.4028235e+38}').optionalFloat).toBe(max);
    expect(err(() => fromJsonString(T, '{"optionalDouble": 1e999}'))[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("a value JSON cannot hold is an error at its path, through lists and maps", () => {
    const wkt = loaded.types;
    const tooLate = { seconds: 253402300800n }; // 10000-01-01: beyond RFC 3339
    const repeated = wkt.get("proto2_unittest.RepeatedWellKnownTypes")!;
    const map = wkt.get("proto2_unittest.MapWellKnownTypes")!;
    const single = wkt.get("proto2_unittest.TestWellKnownTypes")!;
    expect(err(() => toJson(single, { timestampField: tooLate }))).toEqual(["VALUE_OUT_OF_RANGE", "proto2_unittest.TestWellKnownTypes.timestampField"]);
    expect(err(() => toJson(repeated, { timestampField: [{}, tooLate] }))).toEqual(["VALUE_OUT_OF_RANGE", "proto2_unittest.RepeatedWellKnownTypes.timestampField[1]"]);
    expect(err(() => toJson(map, { timestampField: { 7: tooLate } }))).toEqual(["VALUE_OUT_OF_RANGE", 'proto2_unittest.MapWellKnownTypes.timestampField["7"]']);
    expect(err(() => toJson(single, { valueField: {} }, { useProtoNames: true }))).toEqual(["INVALID_VALUE", "proto2_unittest.TestWellKnownTypes.value_field"]);
  });

  it("strings: every escape JSON.stringify writes reads back; raw control characters, bad escapes and open strings are INVALID_JSON", () => {
    const pieces = ["plain", '"', "\\", "/", "\b\f\n\r\t", "\u0000\u001f", "é", "😀", "x".repeat(3000)];
    for (let i = 0; i < 200; i++) {
      const s = Array.from({ length: 1 + (i % 7) }, (_, k) => pieces[(i * 7 + k * 3) % pieces.length]).join("");
      expect(fromJsonString(T, `{"optionalString": ${JSON.stringify(s)}}`).optionalString).toBe(s);
    }
    expect(fromJsonString(T, '{"optionalString": "\\u00e9\\/"}').optionalString).toBe("é/");
    expect(fromJsonString(T, '{"optionalString": "\\ud83d\\ude00"}').optionalString).toBe("😀");
    expect(err(() => fromJsonString(T, '{"optionalString": "\\ud83d"}'))[0]).toBe("INVALID_VALUE"); // a lone surrogate has no UTF-8
    for (const bad of ['{"optionalString": "a\nb"}', '{"optionalString": "a\\qb"}', '{"optionalString": "ab', '{"optionalString": "\\u12"}']) {
      expect(err(() => fromJsonString(T, bad))[0]).toBe("INVALID_JSON");
    }
  });

  it("what generated readers hand to the schema-driven one: closed enums' unknown numbers, missing required fields, deep nesting", () => {
    const T2 = loaded.types.get("protobuf_unittest.TestAllTypes")!;
    // a closed enum keeps an undeclared number as an unknown field, as decode() does
    expect(fromJsonString(T2, '{"optionalNestedEnum": 123}')).toEqual(T2.decode(new Uint8Array([0xa8, 0x01, 0x7b])));
    expect(fromJsonString(T2, '{"optionalNestedEnum": "BAZ", "optionalInt32": 5}')).toMatchObject({ optionalNestedEnum: 3, optionalInt32: 5 });
    const required = loaded.types.get("protobuf_unittest.TestRequired")!;
    expect(fromJsonString(required, '{"a": 1, "b": 2, "c": 3}')).toMatchObject({ a: 1, b: 2, c: 3 });
    expect(thrown(() => fromJsonString(required, '{"a": 1}'), JsonError)[0]).toBe("MISSING_REQUIRED");
    const nested = loaded.types.get("protobuf_unittest.NestedTestAllTypes")!;
    const deep = (n: number): string => (n === 0 ? '{"payload": {"optionalInt32": 7}}' : `{"child": ${deep(n - 1)}}`);
    let o = fromJsonString(nested, deep(90)) as Record<string, any>;
    for (let i = 0; i < 90; i++) o = o.child;
    expect(o.payload.optionalInt32).toBe(7);
    expect(thrown(() => fromJsonString(nested, deep(150)), JsonError)[0]).toBe("INVALID_JSON");
  });

  it("map keys are written as decode() writes them: integers canonical; one key written two ways is an error", () => {
    const M = loaded.types.get("protobuf_unittest.TestMap")!;
    const text = '{"mapInt32Int32": {"007": 1, "-0": 2}, "mapInt64Int64": {"-9223372036854775808": "5"}, "mapBoolBool": {"true": true}}';
    const want = { mapInt32Int32: { "7": 1, "0": 2 }, mapInt64Int64: { "-9223372036854775808": 5n }, mapBoolBool: { true: true } };
    expect(fromJsonString(M, text)).toMatchObject(want);
    expect(M.decode(M.encode(fromJsonString(M, text)))).toEqual(fromJsonString(M, text));
    // which of "7" and "007" came last is not kept: JSON objects list integer keys first, whatever the text's order
    expect(err(() => fromJsonString(M, '{"mapInt32Int32": {"007": 1, "7": 3}}'))).toEqual(["DUPLICATE_FIELD", 'protobuf_unittest.TestMap.mapInt32Int32["007"]']);
    expect(err(() => fromJsonString(M, '{"mapInt32Int32": {"x": 1}}'))).toEqual(["INVALID_VALUE", 'protobuf_unittest.TestMap.mapInt32Int32["x"]']);
    expect(err(() => fromJsonString(M, '{"mapBoolBool": {"yes": true}}'))).toEqual(["INVALID_VALUE", 'protobuf_unittest.TestMap.mapBoolBool["yes"]']);
  });

  it("bytes are standard base64 out; standard, URL-safe and unpadded in", () => {
    const b = new Uint8Array([0xfb, 0xff, 0x01]);
    expect(toJson(T, { optionalBytes: b } as never)).toMatchObject({ optionalBytes: "+/8B" });
    for (const s of ["+/8B", "-_8B"]) expect(fromJsonString(T, `{"optionalBytes": "${s}"}`).optionalBytes).toEqual(b);
    expect(fromJsonString(T, '{"optionalBytes": "AQ"}').optionalBytes).toEqual(new Uint8Array([1]));
    expect(err(() => fromJsonString(T, '{"optionalBytes": "A"}'))[0]).toBe("INVALID_VALUE");
  });

  it("enums by name or number; unknown names fail unless ignored", () => {
    expect(toJson(T, { optionalNestedEnum: 3 } as never)).toMatchObject({ optionalNestedEnum: "BAZ" });
    expect(toJson(T, { optionalNestedEnum: 2 } as never, { enumsAsInts: true })).toMatchObject({ optionalNestedEnum: 2 });
    expect(fromJsonString(T, '{"optionalNestedEnum": "BAZ"}').optionalNestedEnum).toBe(3);
    expect(fromJsonString(T, '{"optionalNestedEnum": 77}').optionalNestedEnum).toBe(77);
    expect(err(() => fromJsonString(T, '{"optionalNestedEnum": "NOPE"}'))[0]).toBe("INVALID_VALUE");
    expect(fromJsonString(T, '{"optionalNestedEnum": "NOPE"}', { ignoreUnknownFields: true }).optionalNestedEnum).toBe(0);
  });

  it("field names: json_name out (or .proto names), both in; unknown fields and duplicates", () => {
    expect(Object.keys(toJson(T, { optionalInt32: 1 } as never, { useProtoNames: true }) as object)).toEqual(["optional_int32"]);
    expect(fromJsonString(T, '{"optional_int32": 4}').optionalInt32).toBe(4);
    expect(err(() => fromJsonString(T, '{"optional_int32": 4, "optionalInt32": 5}'))[0]).toBe("DUPLICATE_FIELD");
    expect(err(() => fromJsonString(T, '{"optionalInt32": 4, "optionalInt32": 5}'))[0]).toBe("INVALID_JSON");
    expect(err(() => fromJsonString(T, '{"nope": 1}'))).toEqual(["UNKNOWN_FIELD", "proto3_unittest.TestAllTypes.nope"]);
    expect(fromJsonString(T, '{"nope": {"deep": [1]}, "optionalInt32": 3}', { ignoreUnknownFields: true }).optionalInt32).toBe(3);
    expect(err(() => fromJsonString(T, '{"oneofUint32": 1, "oneofString": "x"}'))[0]).toBe("DUPLICATE_FIELD");
  });

  it("defaults: omitted unless asked; null means absent", () => {
    expect(toJson(T, T.decode(new Uint8Array(0)))).toEqual({});
    const all = toJson(T, T.decode(new Uint8Array(0)), { emitDefaults: true }) as Record<string, unknown>;
    expect(all["optionalInt32"]).toBe(0);
    expect(all["optionalInt64"]).toBe("0");
    expect(all["repeatedString"]).toEqual([]);
    expect(all["optionalNestedMessage"]).toBeUndefined(); // messages have presence
    expect(fromJsonString(T, '{"optionalInt32": null, "optionalNestedMessage": null}')).toMatchObject({ optionalInt32: 0, optionalNestedMessage: undefined });
  });

  it("maps with stringified keys; __proto__ stays data", () => {
    const M = loaded.types.get("protobuf_unittest.TestMap")!;
    const json = { mapInt32Int32: { "-1": 2 }, mapBoolBool: { true: true }, mapStringString: { __proto__x: "a" } };
    expect(toJson(M, fromJson(M, json))).toEqual(json);
    const m = fromJsonString(M, '{"mapStringString": {"__proto__": "polluted?"}}');
    expect(Object.getPrototypeOf(m.mapStringString)).toBe(Object.prototype);
    expect(m.mapStringString["__proto__"]).toBe("polluted?");
    expect(({} as Record<string, unknown>)["polluted?"]).toBeUndefined();
    expect(err(() => fromJsonString(M, '{"mapInt32Int32": {"x": 1}}'))[0]).toBe("INVALID_VALUE");
  });

  it("well-known types", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    const json = {
      anyField: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1.5s" },
      durationField: "-0.000000010s", timestampField: "1972-01-01T10:00:20.021Z", fieldMaskField: "fooBar,baz.quxQuux",
      structField: { a: [1, "x", null, true, { b: {} }] }, valueField: null, int64Field: "5", bytesField: "AQ==",
      emptyField: {},
    };
    const msg = fromJson(W, json);
    // a Value field given null holds NullValue, so it is present and prints as null; durations print 0, 3, 6 or 9 digits
    expect(toJson(W, msg)).toEqual({ ...json, anyField: { ...json.anyField, value: "1.500s" } });
    expect(toJson(W, fromJsonString(W, '{"timestampField": "1972-01-01T11:00:20.021+01:00"}'))).toEqual({ timestampField: "1972-01-01T10:00:20.021Z" });
    expect(err(() => fromJsonString(W, '{"timestampField": "10000-01-01T00:00:00Z"}'))[0]).toBe("INVALID_VALUE");
    expect(err(() => fromJsonString(W, '{"durationField": "315576000001s"}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => fromJsonString(W, '{"anyField": {"@type": "type.googleapis.com/no.Such"}}'))[0]).toBe("UNKNOWN_TYPE");
  });

  it("an Any of another schema's type (built at run time from a FileDescriptorSet) is found through a Registry", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    const conformance = schemaFromDescriptorSet(descriptorSetOf("conformance"));
    const Foreign = conformance.types.get("protobuf_test_messages.proto3.ForeignMessage")!;
    const registry = new Registry(conformance.types.values(), W);
    expect(registry.get(Foreign.typeName)).toBe(Foreign);
    expect(registry.size).toBe(conformance.types.size + 1);
    const msg = { anyField: anyPack(Foreign, { c: 5 }) };
    const json = '{"anyField":{"@type":"type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage","c":5}}';
    // a type no generated module loaded declares (the generated ones are found by name, as one run's code finds its other files')
    expect(err(() => toJsonString(W, { anyField: { typeUrl: "type.googleapis.com/nowhere.Declared", value: new Uint8Array(0) } }))[0]).toBe("UNKNOWN_TYPE");
    expect(toJsonString(W, msg, { registry })).toBe(json);
    expect(toJsonString(W, msg, { registry: [Foreign] })).toBe(json); // a list of types does too
    expect(fromJsonString(W, json, { registry }).anyField).toEqual(msg.anyField);
    const text = toText(W, msg, { registry });
    expect(text).toContain("[type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage]");
    expect(fromText(W, text, { registry }).anyField).toEqual(msg.anyField);
    expect(anyUnpack(msg.anyField, registry)).toEqual({ c: 5 });
  });
});

describe("hostile JSON", () => {
  const T = p3.TestAllTypes;
  const N = p3.NestedTestAllTypes;
  const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
  const err = (fn: () => unknown) => thrown(fn, JsonError);
  const clean = () => {
    for (const o of [Object.prototype, Array.prototype]) expect(Object.keys(o)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  };

  it("__proto__, constructor and prototype keys: unknown fields, or data, never prototypes", () => {
    for (const key of ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"]) {
      const text = `{"${key}": {"polluted": true}, "optionalInt32": 1}`;
      expect(err(() => fromJsonString(T, text))).toEqual(["UNKNOWN_FIELD", `proto3_unittest.TestAllTypes.${key}`]);
      expect(fromJsonString(T, text, { ignoreUnknownFields: true })).toMatchObject({ optionalInt32: 1 });
      expect(err(() => fromJson(T, JSON.parse(text)))[0]).toBe("UNKNOWN_FIELD");
    }
    // a Struct is a map: its keys are data, printed back as they came
    const struct = '{"structField": {"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}}';
    const m = fromJsonString(W, struct);
    expect(toJson(W, m)).toEqual(JSON.parse(struct));
    expect(Object.getPrototypeOf(toJson(W, m) as object)).toBe(Object.prototype);
    const printed = toJson(W, m) as { structField: Record<string, unknown> };
    expect(Object.getPrototypeOf(printed.structField)).toBe(Object.prototype);
    expect(Object.hasOwn(printed.structField, "__proto__")).toBe(true);
    clean();
  });

  it("deep nesting is an error, not a stack overflow", () => {
    const deep = (n: number) => '{"child":'.repeat(n) + "{}" + "}".repeat(n);
    expect(fromJsonString(N, deep(50))).toBeTruthy();
    for (const n of [201, 100_000]) expect(err(() => fromJsonString(N, deep(n)))[0]).toBe("INVALID_JSON");
    const value = (n: number) => '{"valueField": ' + "[".repeat(n) + "]".repeat(n) + "}";
    // each list level is two message levels (Value, ListValue): 40 fit in the default depth of 100
    expect(toJsonString(W, fromJsonString(W, value(40)))).toBe(value(40).replace(": ", ":"));
    expect(thrown(() => fromJsonString(W, value(60)), JsonError)[0]).toBe("INVALID_JSON");
    expect(err(() => fromJsonString(W, value(100_000)))[0]).toBe("INVALID_JSON");
    // the same depth as objects built in JS, which never went through the text parser
    let obj: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) obj = { child: obj };
    expect(err(() => fromJson(N, obj))[0]).toBe("INVALID_JSON");
    let list: unknown = [];
    for (let i = 0; i < 100_000; i++) list = [list];
    expect(err(() => fromJson(W, { valueField: list }))[0]).toBe("INVALID_JSON");
    const cycle: Record<string, unknown> = {};
    cycle.child = cycle;
    expect(thrown(() => fromJson(N, cycle), JsonError)).toEqual(["INVALID_JSON", "proto3_unittest.NestedTestAllTypes"]);
    expect(fromJsonString(T, '{"optionalInt32": 5}').optionalInt32).toBe(5);
  });

  it("JSON.parse's value is used only when exact: dropped duplicates and rounded integers send the text to the strict parser", () => {
    // a duplicate key, with a ":" in a string that would balance a plain count of ":"
    expect(err(() => fromJsonString(T, '{"optionalString": "a:b", "optionalInt32": 1, "optionalInt32": 2}'))[0]).toBe("INVALID_JSON");
    expect(err(() => fromJsonString(T, '{"optionalNestedMessage": {"bb": 1, "bb": 2}}'))[0]).toBe("INVALID_JSON");
    // an escaped ":" is one in the value but none in the text
    expect(fromJsonString(T, '{"optionalString": "a\\u003ab", "optionalInt32": 5}')).toMatchObject({ optionalString: "a:b", optionalInt32: 5 });
    // beyond 2^53, JSON.parse rounds
    expect(fromJsonString(T, '{"optionalInt64": 9007199254740993}').optionalInt64).toBe(9007199254740993n);
    expect(fromJsonString(T, '{"repeatedUint64": [18446744073709551615]}').repeatedUint64).toEqual([18446744073709551615n]);
  });

  it("a duplicate key is refused on every path, also when escaped colons (\\u003a) balance JSON.parse's dropped keys", () => {
    // each "\u003a" is a ":" in JSON.parse's strings the text does not show, each dropped key one fewer
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    const C = schemaFromDescriptorSet(descriptorSetOf("conformance")).types.get("protobuf_test_messages.proto3.TestAllTypesProto3")!;
    const dropped = '{"optionalInt32": 1, "optionalInt32": 2, "optionalString": "\\u003a"}';
    for (const type of [T, C]) {
      expect(err(() => fromJsonString(type, dropped))[0]).toBe("INVALID_JSON");
      expect(err(() => encodeFromJsonString(type, dropped))[0]).toBe("INVALID_JSON");
      expect(err(() => fromJsonString(type, '{"optionalNestedMessage": {"bb": 1, "bb": 2}, "optionalString": "a\\u003Ab"}'))[0]).toBe("INVALID_JSON");
    }
    // an Any naming two types: a reader of the first would see another message than the second's
    const any = '{"anyField": {"@type": "type.googleapis.com/google.protobuf.Duration", "@type": "type.googleapis.com/google.protobuf.StringValue", "value": "\\u003a"}}';
    expect(err(() => fromJsonString(W, any))).toEqual(["INVALID_JSON", "proto2_unittest.TestWellKnownTypes.anyField.@type"]);
    expect(err(() => encodeFromJsonString(W, any))[0]).toBe("INVALID_JSON");
    // a Struct's keys are JSON keys: given twice, refused too
    expect(err(() => fromJsonString(W, '{"structField": {"a": 1, "a": "\\u003a"}}'))[0]).toBe("INVALID_JSON");
    // what only looks like an escape ("\\u003a" is a backslash and "u003a") is read right, by the strict parser
    expect(fromJsonString(T, '{"optionalString": "\\\\u003a", "optionalInt32": 5}')).toMatchObject({ optionalString: "\\u003a", optionalInt32: 5 });
    expect(fromJsonString(T, '{"optionalString": "a\\u003ab:", "optionalInt32": 5}')).toMatchObject({ optionalString: "a:b:", optionalInt32: 5 });
  });

  it("a duplicate key's error names where it is, not only the top message", () => {
    expect(err(() => fromJsonString(T, '{"repeatedNestedMessage": [{"bb": 1}, {"bb": 1, "bb": 2}]}')))
      .toEqual(["INVALID_JSON", "proto3_unittest.TestAllTypes.repeatedNestedMessage[1].bb"]);
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    expect(err(() => fromJsonString(W, '{"structField": {"a b": {"c": [1, {"d": 1, "d": 2}]}}}')))
      .toEqual(["INVALID_JSON", 'proto2_unittest.TestWellKnownTypes.structField["a b"].c[1].d']);
    // other syntax errors too, and a hostile key is shown cut short
    expect(err(() => fromJsonString(T, '{"optionalNestedMessage": {"bb": 1,}}'))).toEqual(["INVALID_JSON", "proto3_unittest.TestAllTypes.optionalNestedMessage"]);
    const key = "k".repeat(1 << 20);
    const e = (() => { try { fromJsonString(W, `{"structField": {"${key}": 1, "${key}": 2}}`); } catch (x) { return x as JsonError; } })()!;
    expect(e.message.length).toBeLessThan(400);
    expect(e.path).toBe(`proto2_unittest.TestWellKnownTypes.structField["${"k".repeat(64)}…" (${1 << 20} characters)]`);
  });

  it("a number out of double range in a Value, Struct or ListValue is refused with its path, as for a double field", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    const C = schemaFromDescriptorSet(descriptorSetOf("conformance")).types.get("protobuf_test_messages.proto3.TestAllTypesProto3")!;
    const cases: [typeof W, string, string][] = [
      [W, '{"valueField": 1e400}', "proto2_unittest.TestWellKnownTypes.valueField"],
      [W, '{"structField": {"a": [1, -1e400]}}', "proto2_unittest.TestWellKnownTypes.structField.a[1]"],
      [C, '{"repeatedListValue": [[1e999]]}', "protobuf_test_messages.proto3.TestAllTypesProto3.repeatedListValue[0][0]"],
      [C, '{"optionalValue": {"a": 1e400}}', "protobuf_test_messages.proto3.TestAllTypesProto3.optionalValue.a"],
    ];
    for (const [type, text, path] of cases) {
      expect(err(() => fromJsonString(type, text)), text).toEqual(["VALUE_OUT_OF_RANGE", path]);
      expect(err(() => encodeFromJsonString(type, text)), text).toEqual(["VALUE_OUT_OF_RANGE", path]);
      // JSON.parse makes the number Infinity, which a Value cannot hold either (it would print as no JSON)
      expect(err(() => fromJson(type, JSON.parse(text))), text).toEqual(["VALUE_OUT_OF_RANGE", path]);
    }
    // a double field takes JS's Infinity and NaN from a JS value, as it takes their strings
    const m = fromJson(T, { optionalDouble: -Infinity, optionalFloat: NaN, repeatedDouble: [Infinity] });
    expect(m.optionalDouble).toBe(-Infinity);
    expect(m.optionalFloat).toBeNaN();
    expect(m.repeatedDouble).toEqual([Infinity]);
    expect(err(() => fromJson(T, { optionalString: Infinity }))[0]).toBe("INVALID_VALUE");
    expect(fromJsonString(W, '{"valueField": 1e-400}').valueField).toEqual({ kind: { case: "numberValue", value: 0 } });
  });

  it("error messages quote only the start of hostile input (a megabyte of digits, a key of a million letters)", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    const M = loaded.types.get("protobuf_unittest.TestMap")!;
    const digits = "9".repeat(1 << 20), word = "k".repeat(1 << 20);
    const cases: [typeof W, string][] = [
      [T, `{"optionalInt32": ${digits}}`], [T, `{"optionalInt64": "${digits}"}`], [T, `{"optionalInt32": 1${digits}.5}`],
      [T, `{"optionalInt32": 1${digits}.5}`], [T, `{"optionalDouble": ${digits}}`], [T, `{"${word}": 1}`],
      [T, `{"optionalNestedEnum": "${word}"}`], [T, `{"optionalBool": "${word}"}`], [T, `{"optionalBytes": "${word}!"}`],
      [M, `{"mapInt32Int32": {"${word}": 1}}`], [M, `{"mapBoolBool": {"${word}": true}}`],
      [W, `{"timestampField": "${word}"}`], [W, `{"durationField": "${word}"}`], [W, `{"fieldMaskField": "a_${word}"}`],
      [W, `{"anyField": {"@type": "${word}"}}`], [W, `{"anyField": {"@type": "x/${word}"}}`], [W, `{"valueField": 1${digits}}`],
    ];
    for (const [type, text] of cases) {
      const e = (() => { try { fromJsonString(type, text); } catch (x) { return x; } })();
      expect(e, text.slice(0, 40)).toBeInstanceOf(JsonError);
      expect((e as Error).message.length, text.slice(0, 40)).toBeLessThan(300);
    }
  });

  it("fromJsonString takes a string: bytes are a TypeError that says so, not Node's about a \"src\" argument", () => {
    for (const call of [() => fromJsonString(T, Buffer.from("{}") as never), () => encodeFromJsonString(T, new Uint8Array(2) as never)]) {
      expect(call).toThrow(TypeError);
      expect(call).toThrow(/TestAllTypes\.(from|encodeFrom)JsonString: expected a string, got a Uint8Array \(bytes of UTF-8 text: new TextDecoder\(\)\.decode\(bytes\)/);
    }
    expect(fromJsonString(T, new TextDecoder().decode(Buffer.from('{"optionalInt32": 7}'))).optionalInt32).toBe(7);
  });

  it("huge numbers: out of range for the field, or the nearest double", () => {
    const huge = "9".repeat(400);
    for (const field of ["optionalInt32", "optionalUint32", "optionalInt64", "optionalUint64", "optionalFloat"]) {
      expect(err(() => fromJsonString(T, `{"${field}": ${huge}}`))[0]).toBe("VALUE_OUT_OF_RANGE");
      expect(err(() => fromJsonString(T, `{"${field}": "${huge}"}`))[0]).toBe("VALUE_OUT_OF_RANGE");
    }
    expect(err(() => fromJsonString(T, `{"optionalDouble": ${huge}}`))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => fromJsonString(T, '{"optionalDouble": 1e400}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(fromJsonString(T, '{"optionalDouble": 1e-400}').optionalDouble).toBe(0);
    expect(fromJsonString(T, `{"optionalDouble": 0.${"1".repeat(5000)}}`).optionalDouble).toBe(0.1111111111111111);
    expect(fromJsonString(T, `{"optionalInt64": "-9223372036854775808"}`).optionalInt64).toBe(-9223372036854775808n);
    expect(err(() => fromJsonString(T, `{"optionalInt64": "-9223372036854775809"}`))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => fromJsonString(T, `{"optionalInt32": 1e${"9".repeat(300)}}`))[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("very long strings and bytes", () => {
    const text = "ü€😀".repeat(1 << 20); // 9 MiB of UTF-8
    const bytes = new Uint8Array(3 << 20).map((_, i) => i * 7);
    const m = fromJsonString(T, JSON.stringify({ optionalString: text, optionalBytes: Buffer.from(bytes).toString("base64") }));
    const same = (a: Uint8Array | undefined, b: Uint8Array) => expect(Buffer.from(a!).equals(b)).toBe(true); // toEqual is slow at this size
    expect(m.optionalString).toBe(text);
    same(m.optionalBytes, bytes);
    const round = fromJsonString(T, toJsonString(T, T.decode(T.encode(m))));
    expect(round.optionalString).toBe(text);
    same(round.optionalBytes, bytes);
    expect(err(() => fromJsonString(T, `{"optionalString": "${"a".repeat(1 << 20)}`))[0]).toBe("INVALID_JSON");
  });

  it("negative zero survives the round trip, printed as the number -0 as protobuf prints it", () => {
    const m = fromJsonString(T, '{"optionalDouble": -0, "repeatedDouble": [-0, 0], "optionalFloat": "-0"}');
    expect(Object.is(m.optionalDouble, -0)).toBe(true);
    expect(toJsonString(T, m)).toBe('{"optionalFloat":-0,"optionalDouble":-0,"repeatedDouble":[-0,0]}');
    expect(toJsonString(T, m, { indent: 1 })).toContain('"optionalDouble": -0,');
    expect(Object.is(toJson(T, m).optionalDouble, -0)).toBe(true);
    expect(fromJsonString(T, toJsonString(T, m))).toEqual(m);
    // from a JS value too (JSON.parse("-0") is -0), and a string equal to the stand-in stays a string
    expect(Object.is(fromJson(T, { optionalDouble: -0 }).optionalDouble, -0)).toBe(true);
    expect(toJsonString(T, { optionalString: "-0", optionalDouble: -0 } as never)).toBe('{"optionalDouble":-0,"optionalString":"-0"}');
  });

  it("what only the codec finds is a JsonError, and timestamp offsets are checked", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    let deep = "1";
    for (let i = 0; i < 34; i++) deep = `{"a":${deep}}`; // within JSON's 200 levels, past maxDepth as messages
    for (const [text, code] of [[`{"structField": ${deep}}`, "INVALID_JSON"], ['{"valueField": "\\ud800"}', "INVALID_VALUE"],
      ['{"timestampField": "2020-01-01T00:00:00+99:99"}', "INVALID_VALUE"], ['{"timestampField": "2020-01-01T00:00:00+23:60"}', "INVALID_VALUE"]]) {
      const e = thrown(() => fromJsonString(W, text!), JsonError);
      expect(e[0], text).toBe(code);
    }
    expect(toJson(W, fromJsonString(W, '{"timestampField": "2020-01-01T00:00:00+23:59"}'))).toEqual({ timestampField: "2019-12-31T00:01:00Z" });
  });
});
