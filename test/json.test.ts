// ProtoJSON: the golden files both ways, and the mapping rules one by one.
import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { anyPack, anyUnpack, EncodeError, fromText, init, JsonError, Registry, toText } from "hppproto";
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
    expect(type.toJson(type.decode(bytes))).toEqual(JSON.parse(text));
    expect(type.toJson(type.view(bytes))).toEqual(JSON.parse(text));
    expect(type.encode(type.fromJsonString(text))).toEqual(type.encode(type.decode(bytes)));
  });
});

describe("mapping rules", () => {
  const T = p3.TestAllTypes;
  const err = (fn: () => unknown) => thrown(fn, JsonError);

  it("64-bit integers are strings out, strings or exact numbers in", () => {
    expect(T.toJson({ optionalInt64: -5n, optionalUint64: 18446744073709551615n } as never)).toMatchObject({ optionalInt64: "-5", optionalUint64: "18446744073709551615" });
    expect(T.fromJsonString('{"optionalInt64": 9223372036854775807, "optionalUint64": "18446744073709551615"}')).toMatchObject({ optionalInt64: 9223372036854775807n, optionalUint64: 18446744073709551615n });
    expect(T.fromJsonString('{"optionalInt32": 1e2, "optionalUint32": "7", "optionalSint32": -3.0}')).toMatchObject({ optionalInt32: 100, optionalUint32: 7, optionalSint32: -3 });
    expect(err(() => T.fromJsonString('{"optionalInt32": 1.5}'))).toEqual(["INVALID_VALUE", "proto3_unittest.TestAllTypes.optionalInt32"]);
    expect(err(() => T.fromJsonString('{"optionalInt32": 2147483648}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => T.fromJsonString('{"optionalUint64": "-1"}'))[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("floats: shortest form out, NaN and infinities as strings, range-checked in", () => {
    expect(T.toJson({ optionalFloat: Math.fround(1.1), optionalDouble: NaN } as never)).toMatchObject({ optionalFloat: 1.1, optionalDouble: "NaN" });
    expect(T.fromJsonString('{"optionalDouble": "-Infinity", "optionalFloat": "1.5"}')).toMatchObject({ optionalDouble: -Infinity, optionalFloat: 1.5 });
    expect(err(() => T.fromJsonString('{"optionalFloat": 3.5e38}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    // the largest float prints as 3.4028235e+38 (shortest form), a little above it as a double
    const max = Math.fround(3.4028235e38);
    expect(T.toJsonString({ optionalFloat: max } as never)).toBe('{"optionalFloat":3.4028235e+38}');
    expect(T.fromJsonString('{"optionalFloat": 3.4028235e+38}').optionalFloat).toBe(max);
    expect(err(() => T.fromJsonString('{"optionalDouble": 1e999}'))[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("a value JSON cannot hold is an error at its path, through lists and maps", () => {
    const wkt = loaded.types;
    const tooLate = { seconds: 253402300800n }; // 10000-01-01: beyond RFC 3339
    const repeated = wkt.get("proto2_unittest.RepeatedWellKnownTypes")!;
    const map = wkt.get("proto2_unittest.MapWellKnownTypes")!;
    const single = wkt.get("proto2_unittest.TestWellKnownTypes")!;
    expect(err(() => single.toJson({ timestampField: tooLate }))).toEqual(["VALUE_OUT_OF_RANGE", "proto2_unittest.TestWellKnownTypes.timestampField"]);
    expect(err(() => repeated.toJson({ timestampField: [{}, tooLate] }))).toEqual(["VALUE_OUT_OF_RANGE", "proto2_unittest.RepeatedWellKnownTypes.timestampField[1]"]);
    expect(err(() => map.toJson({ timestampField: { 7: tooLate } }))).toEqual(["VALUE_OUT_OF_RANGE", 'proto2_unittest.MapWellKnownTypes.timestampField["7"]']);
    expect(err(() => single.toJson({ valueField: {} }, { useProtoNames: true }))).toEqual(["INVALID_VALUE", "proto2_unittest.TestWellKnownTypes.value_field"]);
  });

  it("strings: every escape JSON.stringify writes reads back; raw control characters, bad escapes and open strings are INVALID_JSON", () => {
    const pieces = ["plain", '"', "\\", "/", "\b\f\n\r\t", "\u0000\u001f", "é", "😀", "x".repeat(3000)];
    for (let i = 0; i < 200; i++) {
      const s = Array.from({ length: 1 + (i % 7) }, (_, k) => pieces[(i * 7 + k * 3) % pieces.length]).join("");
      expect(T.fromJsonString(`{"optionalString": ${JSON.stringify(s)}}`).optionalString).toBe(s);
    }
    expect(T.fromJsonString('{"optionalString": "\\u00e9\\/"}').optionalString).toBe("é/");
    expect(T.fromJsonString('{"optionalString": "\\ud83d\\ude00"}').optionalString).toBe("😀");
    expect(err(() => T.fromJsonString('{"optionalString": "\\ud83d"}'))[0]).toBe("INVALID_VALUE"); // a lone surrogate has no UTF-8
    for (const bad of ['{"optionalString": "a\nb"}', '{"optionalString": "a\\qb"}', '{"optionalString": "ab', '{"optionalString": "\\u12"}']) {
      expect(err(() => T.fromJsonString(bad))[0]).toBe("INVALID_JSON");
    }
  });

  it("what generated readers hand to the schema-driven one: closed enums' unknown numbers, missing required fields, deep nesting", () => {
    const T2 = loaded.types.get("protobuf_unittest.TestAllTypes")!;
    // a closed enum keeps an undeclared number as an unknown field, as decode() does
    expect(T2.fromJsonString('{"optionalNestedEnum": 123}')).toEqual(T2.decode(new Uint8Array([0xa8, 0x01, 0x7b])));
    expect(T2.fromJsonString('{"optionalNestedEnum": "BAZ", "optionalInt32": 5}')).toMatchObject({ optionalNestedEnum: 3, optionalInt32: 5 });
    const required = loaded.types.get("protobuf_unittest.TestRequired")!;
    expect(required.fromJsonString('{"a": 1, "b": 2, "c": 3}')).toMatchObject({ a: 1, b: 2, c: 3 });
    expect(thrown(() => required.fromJsonString('{"a": 1}'), JsonError)[0]).toBe("MISSING_REQUIRED");
    const nested = loaded.types.get("protobuf_unittest.NestedTestAllTypes")!;
    const deep = (n: number): string => (n === 0 ? '{"payload": {"optionalInt32": 7}}' : `{"child": ${deep(n - 1)}}`);
    let o = nested.fromJsonString(deep(90)) as Record<string, any>;
    for (let i = 0; i < 90; i++) o = o.child;
    expect(o.payload.optionalInt32).toBe(7);
    expect(thrown(() => nested.fromJsonString(deep(150)), JsonError)[0]).toBe("INVALID_JSON");
  });

  it("map keys are written as decode() writes them: integers canonical; one key written two ways is an error", () => {
    const M = loaded.types.get("protobuf_unittest.TestMap")!;
    const text = '{"mapInt32Int32": {"007": 1, "-0": 2}, "mapInt64Int64": {"-9223372036854775808": "5"}, "mapBoolBool": {"true": true}}';
    const want = { mapInt32Int32: { "7": 1, "0": 2 }, mapInt64Int64: { "-9223372036854775808": 5n }, mapBoolBool: { true: true } };
    expect(M.fromJsonString(text)).toMatchObject(want);
    expect(M.decode(M.encode(M.fromJsonString(text)))).toEqual(M.fromJsonString(text));
    // which of "7" and "007" came last is not kept: JSON objects list integer keys first, whatever the text's order
    expect(err(() => M.fromJsonString('{"mapInt32Int32": {"007": 1, "7": 3}}'))).toEqual(["DUPLICATE_FIELD", 'protobuf_unittest.TestMap.mapInt32Int32["007"]']);
    expect(err(() => M.fromJsonString('{"mapInt32Int32": {"x": 1}}'))).toEqual(["INVALID_VALUE", 'protobuf_unittest.TestMap.mapInt32Int32["x"]']);
    expect(err(() => M.fromJsonString('{"mapBoolBool": {"yes": true}}'))).toEqual(["INVALID_VALUE", 'protobuf_unittest.TestMap.mapBoolBool["yes"]']);
  });

  it("bytes are standard base64 out; standard, URL-safe and unpadded in", () => {
    const b = new Uint8Array([0xfb, 0xff, 0x01]);
    expect(T.toJson({ optionalBytes: b } as never)).toMatchObject({ optionalBytes: "+/8B" });
    for (const s of ["+/8B", "-_8B"]) expect(T.fromJsonString(`{"optionalBytes": "${s}"}`).optionalBytes).toEqual(b);
    expect(T.fromJsonString('{"optionalBytes": "AQ"}').optionalBytes).toEqual(new Uint8Array([1]));
    expect(err(() => T.fromJsonString('{"optionalBytes": "A"}'))[0]).toBe("INVALID_VALUE");
  });

  it("enums by name or number; unknown names fail unless ignored", () => {
    expect(T.toJson({ optionalNestedEnum: 3 } as never)).toMatchObject({ optionalNestedEnum: "BAZ" });
    expect(T.toJson({ optionalNestedEnum: 2 } as never, { enumsAsInts: true })).toMatchObject({ optionalNestedEnum: 2 });
    expect(T.fromJsonString('{"optionalNestedEnum": "BAZ"}').optionalNestedEnum).toBe(3);
    expect(T.fromJsonString('{"optionalNestedEnum": 77}').optionalNestedEnum).toBe(77);
    expect(err(() => T.fromJsonString('{"optionalNestedEnum": "NOPE"}'))[0]).toBe("INVALID_VALUE");
    expect(T.fromJsonString('{"optionalNestedEnum": "NOPE"}', { ignoreUnknownFields: true }).optionalNestedEnum).toBe(0);
  });

  it("field names: json_name out (or .proto names), both in; unknown fields and duplicates", () => {
    expect(Object.keys(T.toJson({ optionalInt32: 1 } as never, { useProtoNames: true }) as object)).toEqual(["optional_int32"]);
    expect(T.fromJsonString('{"optional_int32": 4}').optionalInt32).toBe(4);
    expect(err(() => T.fromJsonString('{"optional_int32": 4, "optionalInt32": 5}'))[0]).toBe("DUPLICATE_FIELD");
    expect(err(() => T.fromJsonString('{"optionalInt32": 4, "optionalInt32": 5}'))[0]).toBe("INVALID_JSON");
    expect(err(() => T.fromJsonString('{"nope": 1}'))).toEqual(["UNKNOWN_FIELD", "proto3_unittest.TestAllTypes.nope"]);
    expect(T.fromJsonString('{"nope": {"deep": [1]}, "optionalInt32": 3}', { ignoreUnknownFields: true }).optionalInt32).toBe(3);
    expect(err(() => T.fromJsonString('{"oneofUint32": 1, "oneofString": "x"}'))[0]).toBe("DUPLICATE_FIELD");
  });

  it("defaults: omitted unless asked; null means absent", () => {
    expect(T.toJson(T.decode(new Uint8Array(0)))).toEqual({});
    const all = T.toJson(T.decode(new Uint8Array(0)), { emitDefaults: true }) as Record<string, unknown>;
    expect(all["optionalInt32"]).toBe(0);
    expect(all["optionalInt64"]).toBe("0");
    expect(all["repeatedString"]).toEqual([]);
    expect(all["optionalNestedMessage"]).toBeUndefined(); // messages have presence
    expect(T.fromJsonString('{"optionalInt32": null, "optionalNestedMessage": null}')).toMatchObject({ optionalInt32: 0, optionalNestedMessage: undefined });
  });

  it("maps with stringified keys; __proto__ stays data", () => {
    const M = loaded.types.get("protobuf_unittest.TestMap")!;
    const json = { mapInt32Int32: { "-1": 2 }, mapBoolBool: { true: true }, mapStringString: { __proto__x: "a" } };
    expect(M.toJson(M.fromJson(json))).toEqual(json);
    const m = M.fromJsonString('{"mapStringString": {"__proto__": "polluted?"}}');
    expect(Object.getPrototypeOf(m.mapStringString)).toBe(Object.prototype);
    expect(m.mapStringString["__proto__"]).toBe("polluted?");
    expect(({} as Record<string, unknown>)["polluted?"]).toBeUndefined();
    expect(err(() => M.fromJsonString('{"mapInt32Int32": {"x": 1}}'))[0]).toBe("INVALID_VALUE");
  });

  it("well-known types", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    const json = {
      anyField: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1.5s" },
      durationField: "-0.000000010s", timestampField: "1972-01-01T10:00:20.021Z", fieldMaskField: "fooBar,baz.quxQuux",
      structField: { a: [1, "x", null, true, { b: {} }] }, valueField: null, int64Field: "5", bytesField: "AQ==",
      emptyField: {},
    };
    const msg = W.fromJson(json);
    // a Value field given null holds NullValue, so it is present and prints as null; durations print 0, 3, 6 or 9 digits
    expect(W.toJson(msg)).toEqual({ ...json, anyField: { ...json.anyField, value: "1.500s" } });
    expect(W.toJson(W.fromJsonString('{"timestampField": "1972-01-01T11:00:20.021+01:00"}'))).toEqual({ timestampField: "1972-01-01T10:00:20.021Z" });
    expect(err(() => W.fromJsonString('{"timestampField": "10000-01-01T00:00:00Z"}'))[0]).toBe("INVALID_VALUE");
    expect(err(() => W.fromJsonString('{"durationField": "315576000001s"}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => W.fromJsonString('{"anyField": {"@type": "type.googleapis.com/no.Such"}}'))[0]).toBe("UNKNOWN_TYPE");
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
    expect(err(() => W.toJsonString(msg))[0]).toBe("UNKNOWN_TYPE"); // not in W's schema
    expect(W.toJsonString(msg, { registry })).toBe(json);
    expect(W.toJsonString(msg, { registry: [Foreign] })).toBe(json); // a list of types does too
    expect(W.fromJsonString(json, { registry }).anyField).toEqual(msg.anyField);
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
      expect(err(() => T.fromJsonString(text))).toEqual(["UNKNOWN_FIELD", `proto3_unittest.TestAllTypes.${key}`]);
      expect(T.fromJsonString(text, { ignoreUnknownFields: true })).toMatchObject({ optionalInt32: 1 });
      expect(err(() => T.fromJson(JSON.parse(text)))[0]).toBe("UNKNOWN_FIELD");
    }
    // a Struct is a map: its keys are data, printed back as they came
    const struct = '{"structField": {"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}}';
    const m = W.fromJsonString(struct);
    expect(W.toJson(m)).toEqual(JSON.parse(struct));
    expect(Object.getPrototypeOf(W.toJson(m) as object)).toBe(Object.prototype);
    const printed = W.toJson(m) as { structField: Record<string, unknown> };
    expect(Object.getPrototypeOf(printed.structField)).toBe(Object.prototype);
    expect(Object.hasOwn(printed.structField, "__proto__")).toBe(true);
    clean();
  });

  it("deep nesting is an error, not a stack overflow", () => {
    const deep = (n: number) => '{"child":'.repeat(n) + "{}" + "}".repeat(n);
    expect(N.fromJsonString(deep(50))).toBeTruthy();
    for (const n of [201, 100_000]) expect(err(() => N.fromJsonString(deep(n)))[0]).toBe("INVALID_JSON");
    const value = (n: number) => '{"valueField": ' + "[".repeat(n) + "]".repeat(n) + "}";
    // each list level is two message levels (Value, ListValue): 40 fit in the default depth of 100
    expect(W.toJsonString(W.fromJsonString(value(40)))).toBe(value(40).replace(": ", ":"));
    expect(thrown(() => W.fromJsonString(value(60)), JsonError)[0]).toBe("INVALID_JSON");
    expect(err(() => W.fromJsonString(value(100_000)))[0]).toBe("INVALID_JSON");
    // the same depth as objects built in JS, which never went through the text parser
    let obj: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) obj = { child: obj };
    expect(err(() => N.fromJson(obj))[0]).toBe("INVALID_JSON");
    let list: unknown = [];
    for (let i = 0; i < 100_000; i++) list = [list];
    expect(err(() => W.fromJson({ valueField: list }))[0]).toBe("INVALID_JSON");
    const cycle: Record<string, unknown> = {};
    cycle.child = cycle;
    expect(thrown(() => N.fromJson(cycle), JsonError)).toEqual(["INVALID_JSON", "proto3_unittest.NestedTestAllTypes"]);
    expect(T.fromJsonString('{"optionalInt32": 5}').optionalInt32).toBe(5);
  });

  it("JSON.parse's value is used only when exact: dropped duplicates and rounded integers send the text to the strict parser", () => {
    // a duplicate key, with a ":" in a string that would balance a plain count of ":"
    expect(err(() => T.fromJsonString('{"optionalString": "a:b", "optionalInt32": 1, "optionalInt32": 2}'))[0]).toBe("INVALID_JSON");
    expect(err(() => T.fromJsonString('{"optionalNestedMessage": {"bb": 1, "bb": 2}}'))[0]).toBe("INVALID_JSON");
    // an escaped ":" is one in the value but none in the text
    expect(T.fromJsonString('{"optionalString": "a\\u003ab", "optionalInt32": 5}')).toMatchObject({ optionalString: "a:b", optionalInt32: 5 });
    // beyond 2^53, JSON.parse rounds
    expect(T.fromJsonString('{"optionalInt64": 9007199254740993}').optionalInt64).toBe(9007199254740993n);
    expect(T.fromJsonString('{"repeatedUint64": [18446744073709551615]}').repeatedUint64).toEqual([18446744073709551615n]);
  });

  it("huge numbers: out of range for the field, or the nearest double", () => {
    const huge = "9".repeat(400);
    for (const field of ["optionalInt32", "optionalUint32", "optionalInt64", "optionalUint64", "optionalFloat"]) {
      expect(err(() => T.fromJsonString(`{"${field}": ${huge}}`))[0]).toBe("VALUE_OUT_OF_RANGE");
      expect(err(() => T.fromJsonString(`{"${field}": "${huge}"}`))[0]).toBe("VALUE_OUT_OF_RANGE");
    }
    expect(err(() => T.fromJsonString(`{"optionalDouble": ${huge}}`))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => T.fromJsonString('{"optionalDouble": 1e400}'))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(T.fromJsonString('{"optionalDouble": 1e-400}').optionalDouble).toBe(0);
    expect(T.fromJsonString(`{"optionalDouble": 0.${"1".repeat(5000)}}`).optionalDouble).toBe(0.1111111111111111);
    expect(T.fromJsonString(`{"optionalInt64": "-9223372036854775808"}`).optionalInt64).toBe(-9223372036854775808n);
    expect(err(() => T.fromJsonString(`{"optionalInt64": "-9223372036854775809"}`))[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(err(() => T.fromJsonString(`{"optionalInt32": 1e${"9".repeat(300)}}`))[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("very long strings and bytes", () => {
    const text = "ü€😀".repeat(1 << 20); // 9 MiB of UTF-8
    const bytes = new Uint8Array(3 << 20).map((_, i) => i * 7);
    const m = T.fromJsonString(JSON.stringify({ optionalString: text, optionalBytes: Buffer.from(bytes).toString("base64") }));
    const same = (a: Uint8Array | undefined, b: Uint8Array) => expect(Buffer.from(a!).equals(b)).toBe(true); // toEqual is slow at this size
    expect(m.optionalString).toBe(text);
    same(m.optionalBytes, bytes);
    const round = T.fromJsonString(T.toJsonString(T.decode(T.encode(m))));
    expect(round.optionalString).toBe(text);
    same(round.optionalBytes, bytes);
    expect(err(() => T.fromJsonString(`{"optionalString": "${"a".repeat(1 << 20)}`))[0]).toBe("INVALID_JSON");
  });

  it("negative zero survives the round trip, printed as the number -0 as protobuf prints it", () => {
    const m = T.fromJsonString('{"optionalDouble": -0, "repeatedDouble": [-0, 0], "optionalFloat": "-0"}');
    expect(Object.is(m.optionalDouble, -0)).toBe(true);
    expect(T.toJsonString(m)).toBe('{"optionalFloat":-0,"optionalDouble":-0,"repeatedDouble":[-0,0]}');
    expect(T.toJsonString(m, { indent: 1 })).toContain('"optionalDouble": -0,');
    expect(Object.is(T.toJson(m).optionalDouble, -0)).toBe(true);
    expect(T.fromJsonString(T.toJsonString(m))).toEqual(m);
    // from a JS value too (JSON.parse("-0") is -0), and a string equal to the stand-in stays a string
    expect(Object.is(T.fromJson({ optionalDouble: -0 }).optionalDouble, -0)).toBe(true);
    expect(T.toJsonString({ optionalString: "-0", optionalDouble: -0 } as never)).toBe('{"optionalDouble":-0,"optionalString":"-0"}');
  });

  it("what only the codec finds is a JsonError, and timestamp offsets are checked", () => {
    const W = loaded.types.get("proto2_unittest.TestWellKnownTypes")!;
    let deep = "1";
    for (let i = 0; i < 34; i++) deep = `{"a":${deep}}`; // within JSON's 200 levels, past maxDepth as messages
    for (const [text, code] of [[`{"structField": ${deep}}`, "INVALID_JSON"], ['{"valueField": "\\ud800"}', "INVALID_VALUE"],
      ['{"timestampField": "2020-01-01T00:00:00+99:99"}', "INVALID_VALUE"], ['{"timestampField": "2020-01-01T00:00:00+23:60"}', "INVALID_VALUE"]]) {
      const e = thrown(() => W.fromJsonString(text!), JsonError);
      expect(e[0], text).toBe(code);
    }
    expect(W.toJson(W.fromJsonString('{"timestampField": "2020-01-01T00:00:00+23:59"}'))).toEqual({ timestampField: "2019-12-31T00:01:00Z" });
  });
});
