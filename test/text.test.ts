// The protobuf text format: every message of the test schemas printed and read back, protoc's
// printing conventions, what the parser accepts as protoc does, and its errors with their places.
// (protobuf's conformance runner's text-format suite and protoc --encode/--decode check it from
// outside: test/package/text.test.ts.)
import { beforeAll, describe, expect, it } from "vitest";
import { fromText, getLimits, init, setLimits, TextError, toText, toJson, fromJson, create, merge } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { encodeWithProtobufjs, loadSet, randomObject, requiresItself, rng, withoutUnknown } from "./support/protos.js";
import * as p3 from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import * as p2 from "./gen/unittest/google/protobuf/unittest_pb.js";
import * as conf3 from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import * as conf2 from "./gen/conformance/google/protobuf/test_messages_proto2_pb.js";

beforeAll(async () => {
  await init();
});

const sets = { unittest: loadSet("unittest"), conformance: loadSet("conformance") };

describe.each(Object.entries(sets))("every message of the %s schemas", (_name, loaded) => {
  const names = [...loaded.types.keys()].sort();
  it.each(names)("%s: 10 random messages read back from their text as they were", (typeName) => {
    const model = loaded.models.get(typeName)!;
    if (requiresItself(model) || model.messageSet) return;
    const type = loaded.types.get(typeName)!;
    const r = rng(typeName.length * 104729 + 3);
    for (let i = 0; i < 10; i++) {
      const bytes = encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r));
      const plain = type.decode(bytes);
      const text = toText(type, plain);
      expect(withoutUnknown(fromText(type, text)), text).toEqual(withoutUnknown(plain));
      expect(toText(type, type.view(bytes))).toBe(text);
    }
  });
});

describe("string literals", () => {
  beforeAll(async () => {
    await init();
  });
  const T = conf3.TestAllTypesProto3;
  it("escapes between long runs of text, adjacent literals, empty ones, and \\u and \\U among many: the bytes protoc reads", () => {
    const run = "x".repeat(5000) + "é€😀";
    const text = `optional_bytes: "${run}\\n${run}\\001\\x7f\\u00e9\\U0001F600" "" "${run}" ""`;
    const expected = new TextEncoder().encode(`${run}\n${run}\u0001\u007f`);
    const tail = new Uint8Array([0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]);
    const got = fromText(T, text).optionalBytes;
    expect(got).toEqual(Uint8Array.from([...expected, ...tail, ...new TextEncoder().encode(run)]));
    expect(fromText(T, `optional_string: ${'"" '.repeat(10000)}"a\\u0041\\101"`).optionalString).toBe("aAA");
    expect(fromText(T, `optional_string: "${"\\u0041".repeat(20000)}"`).optionalString).toBe("A".repeat(20000));
    expect(() => fromText(T, 'optional_string: "\\uD800"')).toThrow(/is not a Unicode scalar value/);
    expect(() => fromText(T, 'optional_bytes: "ab\\q"')).toThrow(/^1:20: invalid escape \\q/);
  });
});

describe("printing", () => {
  it("U+FEFF is text wherever it stands in a string: printed, and read from UTF-8 and from escapes (TextDecoder drops it by default)", () => {
    const T = conf3.TestAllTypesProto3;
    for (const s of ["\uFEFF", "\uFEFFlead", "mid\uFEFFdle", "\uFEFF\u00e9\uFEFF"]) {
      const text = toText(T, { optionalString: s, repeatedString: [s] });
      expect(text).toBe(`optional_string: "${s}"\nrepeated_string: "${s}"\n`);
      expect(fromText(T, text)).toMatchObject({ optionalString: s, repeatedString: [s] });
    }
    expect(fromText(T, 'optional_string: "\\xEF\\xBB\\xBFq"').optionalString).toBe("\uFEFFq");
    expect(fromText(T, 'optional_string: "\\357\\273\\277"').optionalString).toBe("\uFEFF");
  });
  it("a partial plain object, as encode() takes it: what is absent is not printed", () => {
    const T = conf3.TestAllTypesProto3;
    expect(toText(T, { optionalInt64: 5n, optionalNestedMessage: { corecursive: { optionalBool: true } } })).toBe(
      toText(T, T.decode(T.encode({ optionalInt64: 5n, optionalNestedMessage: { corecursive: { optionalBool: true } } }))));
    expect(toText(T, { optionalInt64: 5n, optionalNestedMessage: {} })).toBe("optional_int64: 5\noptional_nested_message {\n}\n");
    const m = create(T, { optionalInt32: 1 });
    merge(T, m, { optionalNestedMessage: { a: 2 }, repeatedInt32: [3] });
    expect(m).toEqual(create(T, { optionalInt32: 1, optionalNestedMessage: { a: 2 }, repeatedInt32: [3] }));
  });
  it("one field per line by number, nested messages indented, strings and bytes escaped, enums by name", () => {
    const T = p3.TestAllTypes;
    const msg = fromJson(T, {
      optionalInt32: -5, optionalUint64: "18446744073709551615", optionalString: "caf\u00e9 \"q\"\n", optionalBytes: "AP8K",
      optionalNestedMessage: { bb: 7 }, repeatedInt32: [1, 2], optionalNestedEnum: "BAZ", oneofString: "x",
    });
    expect(toText(T, msg)).toBe([
      "optional_int32: -5",
      "optional_uint64: 18446744073709551615",
      'optional_string: "caf\u00e9 \\"q\\"\\n"',
      'optional_bytes: "\\000\\377\\n"',
      "optional_nested_message {",
      "  bb: 7",
      "}",
      "optional_nested_enum: BAZ",
      "repeated_int32: 1",
      "repeated_int32: 2",
      'oneof_string: "x"',
      "",
    ].join("\n"));
  });

  it("floats as the shortest text that reads back, -0, inf and nan; implicit zeros left out", () => {
    const T = conf3.TestAllTypesProto3;
    expect(toText(T, fromJson(T, { optionalFloat: 0.1, optionalDouble: -0 }))).toBe("optional_float: 0.1\noptional_double: -0\n");
    expect(toText(T, fromJson(T, { optionalFloat: "Infinity", optionalDouble: "NaN" }))).toBe("optional_float: inf\noptional_double: nan\n");
    expect(toText(T, fromJson(T, { optionalInt32: 0, optionalString: "" }))).toBe("");
  });

  it("map entries sorted by key; group-like fields by their type's name; extensions as [full.name]", () => {
    const T = conf3.TestAllTypesProto3;
    expect(toText(T, fromJson(T, { mapInt32Int32: { "10": 1, "-2": 2, "3": 3 } }))).toBe(
      "map_int32_int32 {\n  key: -2\n  value: 2\n}\nmap_int32_int32 {\n  key: 3\n  value: 3\n}\nmap_int32_int32 {\n  key: 10\n  value: 1\n}\n",
    );
    const P2 = conf2.TestAllTypesProto2;
    const msg = fromText(P2, "Data { group_int32: 1 } [protobuf_test_messages.proto2.extension_int32]: 5");
    expect(toText(P2, msg)).toBe("[protobuf_test_messages.proto2.extension_int32]: 5\nData {\n  group_int32: 1\n}\n");
  });

  it("an Any whose type is known, expanded; unknown fields only when asked for, as protoc prints them", () => {
    const T = conf3.TestAllTypesProto3;
    const msg = fromText(T, "optional_any { [type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3] { optional_int32: 1 } }");
    expect(toText(T, msg)).toBe("optional_any {\n  [type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3] {\n    optional_int32: 1\n  }\n}\n");
    // field 1001 varint 5, 1002 fixed32, 1003 "h" (not a message), 1004 a nested message { 1: 1 }
    const unknown = T.decode(new Uint8Array([0xc8, 0x3e, 5, 0xd5, 0x3e, 1, 0, 0, 0, 0xda, 0x3e, 1, 0x68, 0xe2, 0x3e, 2, 0x08, 0x01]));
    expect(toText(T, unknown)).toBe("");
    expect(toText(T, unknown, { unknownFields: true })).toBe('1001: 5\n1002: 0x00000001\n1003: "h"\n1004 {\n  1: 1\n}\n');
  });
});

describe("printing unknown fields", () => {
  it("any number of them: 50,000 (150 KB that decode() takes), alone and inside a length-delimited field", () => {
    const T = conf3.TestAllTypesProto3;
    const count = 50_000;
    const fields = new Uint8Array(3 * count);
    for (let i = 0; i < count; i++) fields.set([0xc8, 0x3e, 1], 3 * i); // field 1001, varint 1
    const text = toText(T, T.decode(fields), { unknownFields: true });
    expect(text).toBe("1001: 1\n".repeat(count));
    // field 1004, length-delimited: the same fields, printed as a nested message
    const nested = new Uint8Array([0xe2, 0x3e, 0xf0, 0x93, 0x09, ...fields]); // 150,000 = 0x249f0 as a varint
    expect(toText(T, T.decode(nested), { unknownFields: true })).toBe(`1004 {\n${"  1001: 1\n".repeat(count)}}\n`);
  });

  it("groups nested 50 deep, as protoc --decode_raw prints them (past 10 nothing was printed: the budget of bytes tried as messages cut them)", () => {
    const T = conf3.TestAllTypesProto3;
    const depth = 50; // field 1005 as a group: start 0xeb 0x3e, end 0xec 0x3e
    const bytes = new Uint8Array([...Array(depth).fill([0xeb, 0x3e]).flat(), 0x08, 0x01, ...Array(depth).fill([0xec, 0x3e]).flat()]);
    const indent = (i: number) => "  ".repeat(i);
    const expected = Array.from({ length: depth }, (_, i) => `${indent(i)}1005 {\n`).join("") + `${indent(depth)}1: 1\n` + Array.from({ length: depth }, (_, i) => `${indent(depth - 1 - i)}}\n`).join("");
    expect(toText(T, T.decode(bytes), { unknownFields: true })).toBe(expected);
  });
});

describe("reading", () => {
  const T = conf3.TestAllTypesProto3;
  const read = (text: string) => toJson(T, fromText(T, text));

  it("as protoc reads it: comments, separators, <> and {} messages, lists, joined strings, hex and octal", () => {
    expect(read(`# a comment
      optional_int32: 0x10, optional_uint32: 017; optional_string: 'a' "b"
      optional_nested_message < a: 1 > repeated_int32: [1, -2] repeated_nested_message: [{a: 1}, {a: 2}]
      optional_float: .5f optional_double: -inf optional_bool: t`)).toEqual({
      optionalInt32: 16, optionalUint32: 15, optionalString: "ab", optionalNestedMessage: { a: 1 }, repeatedInt32: [1, -2],
      repeatedNestedMessage: [{ a: 1 }, { a: 2 }], optionalFloat: 0.5, optionalDouble: "-Infinity", optionalBool: true,
    });
  });

  it("escapes as bytes: octal, hex, \\u and \\U as UTF-8", () => {
    expect(read("optional_bytes: '\\001\\x02\\u00e9'")).toEqual({ optionalBytes: "AQLDqQ==" });
    expect(read("optional_string: '\\U0001F600'")).toEqual({ optionalString: "\u{1F600}" });
  });

  it("a reserved field name is skipped whatever its value; map entries: the last for a key wins", () => {
    expect(read("reserved_field: { a: [1, 2] } optional_int32: 1")).toEqual({ optionalInt32: 1 });
    expect(read('map_string_string { key: "k" value: "1" } map_string_string { key: "k" value: "2" }')).toEqual({ mapStringString: { k: "2" } });
  });

  it("gives the same plain object as decode(), defaults included", () => {
    expect(fromText(p3.TestAllTypes, "optional_int32: 1")).toEqual(p3.TestAllTypes.decode(new Uint8Array([8, 1])));
  });

  const error = (type: typeof T | typeof p2.TestAllTypes, text: string) => {
    try {
      fromText(type as typeof T, text);
    } catch (e) {
      expect(e).toBeInstanceOf(TextError);
      const t = e as TextError;
      return [t.code, `${t.line}:${t.column}`, t.path];
    }
    throw new Error("no error");
  };

  it("bad text: the error names its code, line:column and field", () => {
    const root = "protobuf_test_messages.proto3.TestAllTypesProto3";
    expect(error(T, "optional_int32: 1\n  optional_nested_message { a: x }")).toEqual(["INVALID_VALUE", "2:32", `${root}.optional_nested_message.a`]);
    expect(error(T, "optional_int32: 2147483648")).toEqual(["VALUE_OUT_OF_RANGE", "1:17", `${root}.optional_int32`]);
    expect(error(T, "no_such_field: 1")).toEqual(["UNKNOWN_FIELD", "1:1", root]);
    expect(error(T, "optional_int32: 1 optional_int32: 2")).toEqual(["DUPLICATE_FIELD", "1:19", `${root}.optional_int32`]);
    expect(error(T, "oneof_uint32: 1 oneof_string: 'x'")).toEqual(["DUPLICATE_FIELD", "1:17", `${root}.oneof_string`]);
    expect(error(T, "optional_string: '\\300'")).toEqual(["INVALID_VALUE", "1:18", `${root}.optional_string`]);
    expect(error(T, "optional_string: 'abc")).toEqual(["INVALID_TEXT", "1:18", `${root}.optional_string`]);
    expect(error(T, "repeated_int32: [1,]")).toEqual(["INVALID_TEXT", "1:20", `${root}.repeated_int32[1]`]);
    expect(error(T, "optional_int32 1")).toEqual(["INVALID_TEXT", "1:16", `${root}.optional_int32`]);
    expect(error(T, "optional_float: 0x1")).toEqual(["INVALID_VALUE", "1:17", `${root}.optional_float`]);
    expect(error(T, "optional_any { [type.googleapis.com/no.Such] {} }")).toEqual(["UNKNOWN_TYPE", "1:16", `${root}.optional_any`]);
    expect(error(p2.TestAllTypes, "optional_nested_enum: 42")).toEqual(["INVALID_VALUE", "1:23", "protobuf_unittest.TestAllTypes.optional_nested_enum"]);
    const deep = error(T, "optional_nested_message { corecursive {".repeat(60));
    expect(deep.slice(0, 2)).toEqual(["INVALID_TEXT", "1:1977"]);
  });

  it("error messages quote only the start of hostile text (a megabyte of digits or letters)", () => {
    const digits = "9".repeat(1 << 20), word = "k".repeat(1 << 20);
    for (const text of [`optional_int32: ${digits}`, `optional_int32: 0x${"f".repeat(1 << 20)}`, `${word}: 1`, `optional_nested_enum: ${word}`,
      `optional_bool: ${word}`, `optional_double: ${word}`, `optional_int32 ${word}`, `[${word}]: 1`, `optional_int32: "${word}"`,
      `optional_any { [type.googleapis.com/${word}] {} }`, `optional_any { [${word}%/x] {} }`, `optional_nested_message ${word}`]) {
      const e = (() => { try { fromText(T, text); } catch (x) { return x; } })();
      expect(e, text.slice(0, 40)).toBeInstanceOf(TextError);
      expect((e as Error).message.length, text.slice(0, 40)).toBeLessThan(300);
    }
    // text is a string: bytes are a TypeError that says so (as fromJsonString's)
    expect(() => fromText(T, Buffer.from("a: 1") as never)).toThrow(/fromText: expected a string, got a Uint8Array/);
  });

  it("what only the codec finds in what the text made (a memory budget) is placed at its line:column in the text", () => {
    const rt = runtime();
    const limits = getLimits();
    setLimits({ maxAmplification: 1 });
    try {
      // a record each (a whole TestAllTypesProto3) for 4 bytes of wire data: past the budget at some element
      const text = "optional_int32: 1\n" + "repeated_nested_message { corecursive {} }\n".repeat(3000);
      const e = (() => { try { fromText(T, text); } catch (x) { return x; } })() as TextError;
      expect(e).toBeInstanceOf(TextError);
      expect(e.message).not.toMatch(/at byte/);
      const element = /\.repeated_nested_message\[(\d+)\]\.corecursive$/.exec(e.path);
      expect(element, e.message).not.toBeNull();
      // element i is on line i + 2, its corecursive at column 27
      expect([e.line, e.column]).toEqual([Number(element![1]) + 2, 27]);
    } finally {
      setLimits(limits);
    }
    expect(fromText(T, "optional_int32: 1").optionalInt32).toBe(1);
  });

  it("text whose own budget holds but whose messages the binary budget refuses (much text, few wire bytes) is placed at its line:column too", () => {
    const rt = runtime();
    const limits = getLimits();
    setLimits({ maxAmplification: 1 });
    try {
      // per element two records and 4 wire bytes, but text padded to twice the records' size:
      // the text's budget (its own size) holds, the wire bytes' does not
      const nested = T.schemaDef.messages[T.index]!.fields.find((f) => f.name === "repeated_nested_message")!;
      const size = T.schemaDef.messages[nested.ref]!.recordSize + T.recordSize;
      const text = "optional_int32: 1\n" + `repeated_nested_message { corecursive {} }${" ".repeat(2 * size)}\n`.repeat(1000);
      const e = (() => { try { fromText(T, text); } catch (x) { return x; } })() as TextError;
      expect(e).toBeInstanceOf(TextError);
      expect(e.code).toBe("MEMORY_BUDGET");
      expect(e.message).not.toMatch(/at byte/);
      const element = /\.repeated_nested_message\[(\d+)\]/.exec(e.path);
      expect(element, e.message).not.toBeNull();
      expect(e.line).toBe(Number(element![1]) + 2);
    } finally {
      setLimits(limits);
    }
  });

  it("a required field left out is an error, as protoc's parser has it", () => {
    expect(error(p2.TestRequired as never, "a: 1")).toEqual(["MISSING_REQUIRED", "1:5", "protobuf_unittest.TestRequired"]);
  });
});
