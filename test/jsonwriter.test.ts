// The codec's ProtoJSON writer (cpp/include/hppproto/json_encoder.hpp): toJsonString() of views,
// of plain objects without a generated writer (CODE_SIZE, runtime schemas), long strings in any, and
// decodeToJsonString(), write records in WASM, leave doubles to Number#toString and hand the
// well-known types' own forms to the JS writer. What it writes must read as the generated text
// writer's text for the same message, and so must the schema-driven JS writer's (the codec
// switched off); and the codec must write most messages itself, or it is dead weight.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as es from "@bufbuild/protobuf";
import { DecodeError, getLimits, init, setLimits, JsonError, toText, toJson, toJsonString, fromJson, fromJsonString, decodeToJsonString, create } from "hppproto";
import { loadSchema } from "../dist/codegen/dynamic.js";
import { runtime } from "../dist/ts/runtime.js";
import { interpretedType } from "../dist/ts/interpreted/index.js";
import { encodeWithProtobufjs, loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { thrown } from "./support/thrown.js";
import { registryOf } from "./support/buf.js";
import { schemaSets } from "./support/paths.js";
import * as conf3 from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import { Any } from "./gen/conformance/google/protobuf/any_pb.js";
import * as conf2 from "./gen/conformance/google/protobuf/test_messages_proto2_pb.js";

beforeAll(async () => {
  await init();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the messages the codec wrote itself (jsonEncode returned text). */
function countCodecWrites(): { written: number; handed: number } {
  const rt = runtime().full!;
  const original = rt.jsonEncode.bind(rt);
  const counts = { written: 0, handed: 0 };
  vi.spyOn(rt, "jsonEncode").mockImplementation((...args: Parameters<typeof rt.jsonEncode>) => {
    const text = original(...args);
    if (text !== undefined) counts.written++;
    else counts.handed++;
    return text;
  });
  return counts;
}

/** `write` with the codec's writer switched off: the JS writer's text. */
function inJs<R>(write: () => R): R {
  const rt = runtime().full!;
  const own = Object.getOwnPropertyDescriptor(rt, "jsonEncode"); // a counting spy, say
  rt.jsonEncode = () => undefined;
  try {
    return write();
  } finally {
    if (own) Object.defineProperty(rt, "jsonEncode", own);
    else delete (rt as { jsonEncode?: unknown }).jsonEncode;
  }
}

const sets = { unittest: loadSet("unittest"), conformance: loadSet("conformance") };
const optionSets = [{}, { useProtoNames: true }, { enumsAsInts: true, emitDefaults: true }, { useProtoNames: true, emitDefaults: true }];

describe.each(Object.entries(sets))("every message of the %s schemas", (_name, loaded) => {
  const names = [...loaded.types.keys()].sort();
  it("10 random messages each, from plain objects, views and bytes, with each option: what the JS writer writes", () => {
    const counts = countCodecWrites();
    let messages = 0;
    for (const typeName of names) {
      const model = loaded.models.get(typeName)!;
      if (requiresItself(model) || model.messageSet) continue;
      const type = loaded.types.get(typeName)!;
      const interpreted = interpretedType((type as any).schemaDef, (type as any).index); // no generated writer
      const r = rng(typeName.length * 6007 + 3);
      for (let i = 0; i < 10; i++) {
        const bytes = encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r));
        const plain = type.decode(bytes);
        const options = optionSets[i % optionSets.length]!;
        let reference: string;
        try {
          reference = toJsonString(type, plain, options); // the generated writer
        } catch (e) {
          if (e instanceof JsonError) continue; // a value ProtoJSON cannot hold (a Timestamp out of range, say)
          throw e;
        }
        messages++;
        const expected = JSON.parse(reference);
        expect(JSON.parse(toJsonString(type, type.view(bytes), options)), reference).toEqual(expected);
        expect(JSON.parse(decodeToJsonString(type, bytes, options)), reference).toEqual(expected);
        expect(JSON.parse(toJsonString(interpreted, plain as never, options)), reference).toEqual(expected);
        expect(JSON.parse(inJs(() => toJsonString(type, type.view(bytes), options))), reference).toEqual(expected);
      }
    }
    // three writes a message; the schemas are full of well-known types, which stay the JS writer's
    expect(counts.written).toBeGreaterThan(messages * 3 * 0.6);
  });
});

describe("plain objects of generated types", () => {
  const T = conf3.TestAllTypesProto3;
  it("are written by the generated writer, long strings anywhere in them escaped by the codec as JSON.stringify escapes", () => {
    const long = 'a "quoted" \\ back\nslash, é, 😀, \u0001 '.repeat(40); // about 1.4 K characters with every kind of escape
    const lone = "x".repeat(200) + "\ud800"; // no UTF-8 form: JSON.stringify's to escape
    const message = {
      optionalString: long, optionalInt32: 5, optionalNestedMessage: { a: 1, corecursive: { optionalString: long } },
      repeatedString: [long, "short", lone], mapStringString: { k: long },
    };
    const counts = countCodecWrites();
    const quotes = vi.spyOn(runtime(), "jsonQuote");
    const text = toJsonString(T, message);
    expect(counts).toEqual({ written: 0, handed: 0 });
    expect(quotes).toHaveBeenCalledTimes(4);
    expect(text).toBe(JSON.stringify(JSON.parse(text))); // escaped exactly as JSON.stringify escapes
    expect(JSON.parse(text)).toEqual(message);
    expect(text).toContain('x\\ud800"]');
  });

  it("strings around the codec's threshold with an escape at each place: JSON.stringify's text", () => {
    const specials = ["", '"', "\\", "\u0001", "\u001f", "\u007f", "é", "\u2028", "😀"];
    for (let length = 504; length <= 520; length++) { // Node's threshold (json/write.ts)
      for (const special of specials) {
        for (const at of [0, 7, 8, 31, length - 1]) {
          const s = "y".repeat(at) + special + "z".repeat(length - at);
          expect(toJsonString(T, { optionalString: s })).toBe(`{"optionalString":${JSON.stringify(s)}}`);
        }
      }
    }
  });

  it("writing long strings inside a forEachDelimited() callback leaves the batch's other messages whole", () => {
    const messages = [0, 1, 2].map((i) => ({ optionalString: `${i}"`.repeat(300 + i), repeatedString: ["é\n".repeat(300 + i)] }));
    const texts = messages.map((m) => toJsonString(T, m));
    const seen: unknown[] = [];
    const written: string[] = [];
    T.forEachDelimited(T.encodeDelimited(messages), (m) => {
      seen.push(m);
      written.push(toJsonString(T, m));
    });
    expect(seen).toEqual(messages.map((m) => T.decode(T.encode(m))));
    expect(written).toEqual(texts);
    expect(JSON.parse(texts[2]!).optionalString).toBe(messages[2]!.optionalString);
    // the JS writer after a decode whose input is staged where long strings go (a wrapper is JS's to write)
    const wrapped = { optionalString: 'x"'.repeat(300), optionalStringWrapper: { value: "y\\".repeat(300) } };
    expect(decodeToJsonString(T, T.encode(wrapped))).toBe(toJsonString(T, wrapped));
  });

  it("a string past the codec's size limit is JSON.stringify's; the runtime stays usable", () => {
    const rt = runtime().full!;
    const limits = getLimits();
    const long = "\n".repeat(5000);
    setLimits({ maxMessageSize: 1000 });
    try {
      expect(rt.jsonQuote(long)).toBeUndefined();
      expect(toJsonString(T, { optionalString: long })).toBe(`{"optionalString":${JSON.stringify(long)}}`);
    } finally {
      setLimits(limits);
    }
    expect(rt.jsonQuote(long)).toBe(JSON.stringify(long));
  });
});

describe("values", () => {
  const T = conf3.TestAllTypesProto3;
  // plain objects without a generated writer go through the codec too
  const I = interpretedType((T as any).schemaDef, (T as any).index) as unknown as typeof T;
  const both = (message: Parameters<typeof T.encode>[0]) => {
    const counts = countCodecWrites();
    const text = toJsonString(I, message as never);
    expect(toJsonString(T, T.view(T.encode(message)))).toBe(text);
    expect(counts).toEqual({ written: 2, handed: 0 });
    expect(text).toBe(inJs(() => toJsonString(I, message as never)));
    expect(JSON.parse(text)).toEqual(JSON.parse(toJsonString(T, message as never))); // the generated writer
    return text;
  };

  it("doubles and floats: the text JS prints, integers by the codec, NaN and the infinities as strings", () => {
    const r = rng(7);
    const bits = new DataView(new ArrayBuffer(8));
    const doubles: number[] = [0, -0, 1, -1, 0.1, 2 ** 53, 2 ** 53 - 1, -(2 ** 53), 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 123456789012, NaN, Infinity, -Infinity];
    while (doubles.length < 2000) {
      bits.setUint32(0, (r() * 2 ** 32) >>> 0);
      bits.setUint32(4, (r() * 2 ** 32) >>> 0);
      doubles.push(bits.getFloat64(0), Math.round(r() * 2 ** 40) * (r() < 0.5 ? -1 : 1));
    }
    const floats = doubles.map((d) => Math.fround(d));
    const text = both({ repeatedDouble: doubles, repeatedFloat: floats, optionalDouble: -0, optionalFloat: 16777216 });
    const json = JSON.parse(text);
    const asJson = (d: number) => (Number.isNaN(d) ? "NaN" : d === Infinity ? "Infinity" : d === -Infinity ? "-Infinity" : d);
    expect(json.repeatedDouble).toEqual(doubles.map(asJson));
    expect(json.repeatedFloat.map((f: number | string) => (typeof f === "number" ? Math.fround(f) : f))).toEqual(floats.map(asJson));
    expect(text).toContain('"optionalDouble":-0,');
    expect(text).toContain('"optionalFloat":16777216,');
  });

  it("an integer field's -0 is its zero and left out, as encode() leaves it out; a double's or float's -0 is written", () => {
    const text = both({ optionalInt32: -0, optionalUint32: -0, optionalSfixed32: -0, optionalFloat: -0, optionalDouble: -0 });
    expect(text).toBe('{"optionalFloat":-0,"optionalDouble":-0}');
    expect(toJsonString(T, { optionalInt32: -0 })).toBe("{}");
    expect(toJsonString(I, { optionalInt32: -0, optionalInt64: -0 } as never)).toBe("{}");
    expect(toText(T, { optionalInt32: -0, optionalDouble: -0 })).toBe("optional_double: -0\n");
  });

  it("strings: quotes, backslashes and control characters escaped as JSON.stringify escapes them; the rest as it is", () => {
    const all = Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i)).join("");
    const strings = [all, 'a"b\\c', "caf\u00e9 \u{1f600} \u2028\u2029 \ufffd", "x".repeat(1000) + "\n", "", "0123456789abcdef\u0001"];
    const text = both({ repeatedString: strings, optionalString: all.repeat(3) });
    expect(text).toBe(JSON.stringify({ optionalString: all.repeat(3), repeatedString: strings }));
    // every UTF-16 code unit, alone and between letters (lone surrogates escaped), and pairs; as map keys too
    const units = Array.from({ length: 0x10000 }, (_, i) => String.fromCharCode(i));
    const each = [...units, ...units.map((u) => `ab${u}cd`), "\ud83d\ude00", "x\udbff\udfffy"];
    const plain = toJsonString(conf3.TestAllTypesProto3, { repeatedString: each, mapStringString: { 'k"\\\u0001\ud800': "v\udc00" } });
    expect(plain).toBe(JSON.stringify({ repeatedString: each, mapStringString: { 'k"\\\u0001\ud800': "v\udc00" } }));
  });

  it("bytes as padded base64 of every length, 64-bit integers as strings at their bounds, enums by name or number", () => {
    const lengths = [0, 1, 2, 3, 4, 5, 6, 100];
    const text = both({
      repeatedBytes: lengths.map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255)),
      repeatedInt64: [-(2n ** 63n), 2n ** 63n - 1n, 0n], repeatedUint64: [2n ** 64n - 1n], repeatedSint32: [-(2 ** 31)], repeatedUint32: [2 ** 32 - 1],
      repeatedNestedEnum: [0, 1, 2, -1, 99], optionalBool: true, repeatedBool: [true, false],
    });
    const json = JSON.parse(text);
    expect(json.repeatedBytes).toEqual(lengths.map((n) => Buffer.from(Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255)).toString("base64")));
    expect(json.repeatedInt64).toEqual(["-9223372036854775808", "9223372036854775807", "0"]);
    expect(json.repeatedUint64).toEqual(["18446744073709551615"]);
    expect(json.repeatedSint32).toEqual([-2147483648]);
    expect(json.repeatedUint32).toEqual([4294967295]);
    expect(json.repeatedNestedEnum).toEqual(["FOO", "BAR", "BAZ", "NEG", 99]);
  });

  it("maps: keys as strings; from wire data, entries in its order, an entry without value written with the zero value", () => {
    both({ mapInt64Int64: { "-5": 7n, "9223372036854775807": 1n }, mapBoolBool: { true: false, false: true }, mapStringNestedMessage: { k: { a: 1 }, "\u00e9\n": {} }, mapUint32Uint32: { 4294967295: 1 } });
    // map_string_nested_message: an entry with only a key, then one with neither
    const tag = [...T.encode({ mapStringNestedMessage: { k: {} } }).subarray(0, 2)];
    const wire = new Uint8Array([...tag, 0x03, 0x0a, 0x01, 0x6b, ...tag, 0x00]);
    expect(JSON.parse(decodeToJsonString(T, wire))).toEqual({ mapStringNestedMessage: { k: {}, "": {} } });
    expect(JSON.parse(toJsonString(T, T.view(wire)))).toEqual({ mapStringNestedMessage: { k: {}, "": {} } });
  });

  it("a map key the wire data gives twice: the JS writer writes the last value, as decode() keeps it", () => {
    // two entries of one key: each encoded alone, the bytes put together
    const one = T.encode({ mapInt32Int32: { 1: 10 } });
    const two = T.encode({ mapInt32Int32: { 1: 20 } });
    const wire = new Uint8Array([...one, ...two]);
    const counts = countCodecWrites();
    expect(decodeToJsonString(T, wire)).toBe('{"mapInt32Int32":{"1":20}}');
    expect(counts).toEqual({ written: 0, handed: 1 });
  });

  it("options: .proto names, enums as numbers, defaults written", () => {
    const message = { optionalInt32: 0, optionalNestedEnum: 2, repeatedInt32: [], optionalNestedMessage: { a: 0 } };
    for (const options of [{ useProtoNames: true }, { enumsAsInts: true }, { emitDefaults: true }, { useProtoNames: true, enumsAsInts: true, emitDefaults: true }]) {
      const counts = countCodecWrites();
      const text = toJsonString(I, message, options);
      expect(counts).toEqual({ written: 1, handed: 0 });
      expect(JSON.parse(text)).toEqual(JSON.parse(inJs(() => toJsonString(I, message, options))));
      vi.restoreAllMocks();
    }
    const text = toJsonString(I, message, { useProtoNames: true, enumsAsInts: true, emitDefaults: true });
    expect(text).toContain('"optional_nested_enum":2');
    expect(text).toContain('"optional_int32":0');
    expect(text).toContain('"repeated_int32":[]');
    expect(text).toContain('"map_string_string":{}');
    expect(text).not.toContain("optional_bytes\":\"\",\"optional_nested_message\":null");
  });

  it("well-known types and proto2: the JS writer writes their own forms; proto2 strings that are not UTF-8 read as JS reads them", () => {
    const counts = countCodecWrites();
    expect(JSON.parse(toJsonString(I, { optionalTimestamp: { seconds: 1n, nanos: 0 }, optionalInt32: 4 }))).toEqual({ optionalTimestamp: "1970-01-01T00:00:01Z", optionalInt32: 4 });
    expect(counts).toEqual({ written: 0, handed: 1 });
    const P = conf2.TestAllTypesProto2;
    const invalid = new Uint8Array([0x72, 0x03, 0x61, 0xff, 0x62]); // optional_string (14): "a", 0xff, "b"
    expect(decodeToJsonString(P, invalid)).toBe(inJs(() => toJsonString(P, P.decode(invalid))));
    expect(decodeToJsonString(P, invalid)).toBe('{"optionalString":"a\ufffdb"}');
  });

  it("a plain object encode() would refuse is the JS writer's to write or to refuse, with its error", () => {
    const bad = { optionalInt32: "not a number" } as never;
    let reference: unknown, got: unknown;
    try {
      reference = inJs(() => toJsonString(I, bad));
    } catch (e) {
      reference = e;
    }
    try {
      got = toJsonString(I, bad);
    } catch (e) {
      got = e;
    }
    expect(got).toEqual(reference);
  });

  it("a view of another message type is a TypeError, not read with this type's record layout", () => {
    const other = conf2.TestAllTypesProto2.view(conf2.TestAllTypesProto2.encode({ optionalString: "x".repeat(40), repeatedInt64: [1n, 2n] }));
    expect(() => toJsonString(T, other as never)).toThrow(/a view of another message type/);
    expect(() => toJsonString(I, other as never)).toThrow(TypeError);
  });

  it("deep nesting is handed to the JS writer; large text grows the buffer; the runtime stays usable", () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 90; i++) deep = { recursiveMessage: deep };
    expect(JSON.parse(toJsonString(I, deep))).toEqual(JSON.parse(inJs(() => toJsonString(I, deep))));
    const big = "\u00e9\n".repeat(600_000);
    expect(toJsonString(I, { optionalString: big })).toBe(JSON.stringify({ optionalString: big }));
    expect(toJsonString(I, { optionalInt32: 1 })).toBe('{"optionalInt32":1}');
    expect(thrown(() => decodeToJsonString(T, new Uint8Array([0x08])), DecodeError)).toEqual(thrown(() => T.decode(new Uint8Array([0x08])), DecodeError));
    expect(decodeToJsonString(T, T.encode({ optionalInt32: 2 }))).toBe('{"optionalInt32":2}');
  });
});

describe("Any in Any: the writers nest JSON as deeply as the readers read it (200 objects and arrays), and no deeper", () => {
  const T = conf3.TestAllTypesProto3;
  const I = interpretedType((T as any).schemaDef, (T as any).index) as unknown as typeof T;
  /** A message whose optionalAny holds `levels` Anys, one in the other, the last one a message. */
  const nested = (levels: number): Uint8Array => {
    let any = { typeUrl: `type.googleapis.com/${T.typeName}`, value: T.encode({ optionalInt32: 7 }) };
    for (let i = 1; i < levels; i++) any = { typeUrl: "type.googleapis.com/google.protobuf.Any", value: Any.encode(any) };
    return T.encode({ optionalAny: any });
  };
  /** How deeply a JSON value's objects and arrays nest. */
  const depthOf = (v: unknown): number =>
    typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
  const writers: Record<string, (bytes: Uint8Array) => string> = {
    "decodeToJsonString (the codec's writer first)": (bytes) => decodeToJsonString(T, bytes),
    "toJsonString of a plain object (the generated writer)": (bytes) => toJsonString(T, T.decode(bytes)),
    "toJsonString of a view": (bytes) => toJsonString(T, T.view(bytes)),
    "toJson": (bytes) => JSON.stringify(toJson(T, T.decode(bytes))),
    "toJsonString of a runtime schema's type (the interpreted writer)": (bytes) => toJsonString(I, I.decode(bytes)),
  };

  it.each(Object.entries(writers))("%s: 199 Anys (200 objects) are written and read back; 200 Anys and 6,000 are a JsonError naming the field", (_name, write) => {
    const atLimit = nested(199);
    const text = write(atLimit);
    expect(depthOf(JSON.parse(text))).toBe(200); // the message, then an object per Any
    expect(T.encode(fromJsonString(T, text))).toEqual(atLimit);
    expect(T.encode(fromJson(T, JSON.parse(text)))).toEqual(atLimit);
    for (const levels of [200, 6000]) {
      const error = thrown(() => write(nested(levels)), JsonError);
      expect(error).toEqual(["INVALID_VALUE", "protobuf_test_messages.proto3.TestAllTypesProto3.optionalAny"]);
    }
    expect(write(T.encode({ optionalInt32: 3 }))).toBe('{"optionalInt32":3}'); // and the runtime writes on
  });

  it("the readers refuse the 201 objects of 200 Anys; toText refuses Anys past its own nesting limit (100 messages) with a TextError", () => {
    const text = `${'{"optionalAny":'}${'{"@type":"type.googleapis.com/google.protobuf.Any","value":'.repeat(199)}{"@type":"type.googleapis.com/${T.typeName}"}${"}".repeat(200)}`;
    expect(depthOf(JSON.parse(text))).toBe(201);
    expect(thrown(() => fromJsonString(T, text), JsonError)[0]).toBe("INVALID_JSON");
    expect(thrown(() => fromJson(T, JSON.parse(text)), JsonError)[0]).toBe("INVALID_JSON");
    expect(toText(T, T.decode(nested(99)))).toContain("optional_int32: 7");
    for (const levels of [100, 6000]) expect(() => toText(T, T.decode(nested(levels)))).toThrow(/messages nested deeper than 100 \(protobuf_test_messages\.proto3\.TestAllTypesProto3\.optional_any\) \[INVALID_VALUE\]/);
  });
});

describe("extensions with emitDefaults: left out unless set, as @bufbuild's toJson with alwaysEmitImplicit leaves them out", () => {
  // extensions of every kind (singular, repeated, packed, messages, enums, groups) as fields of the
  // messages they extend, written by every writer, against @bufbuild reading the same bytes
  const samples: [keyof typeof sets, string, Record<string, unknown>][] = [
    ["unittest", "protobuf_unittest.TestAllExtensions", { optionalInt32Extension: 1, repeatedStringExtension: ["a"], repeatedNestedMessageExtension: [{ bb: 2 }], repeatedNestedEnumExtension: [3] }],
    ["unittest", "protobuf_unittest.TestPackedExtensions", { packedSint64Extension: [-1n, 2n] }],
    ["unittest", "protobuf_unittest.TestUnpackedExtensions", { unpackedDoubleExtension: [0.5] }],
    ["conformance", "protobuf_test_messages.proto2.TestAllTypesProto2", { optionalInt32: 1, extensionInt32: 5 }],
    ["conformance", "protobuf_test_messages.editions.proto2.TestAllTypesProto2", { extensionInt32: 6 }],
  ];
  const registries = { unittest: registryOf("unittest"), conformance: registryOf("conformance") };
  const runtimeSchemas = Object.fromEntries(Object.keys(sets).map((set) => {
    const { files, protoPath } = schemaSets[set as keyof typeof sets];
    return [set, loadSchema(files.map((f) => `${protoPath}/${f}`), [protoPath]).types];
  }));
  const options = { emitDefaults: true };

  it.each(samples)("%s: %s, empty and with some set", (set, typeName, fields) => {
    const T = sets[set].types.get(typeName)!;
    const I = interpretedType((T as any).schemaDef, (T as any).index) as unknown as typeof T;
    const R = runtimeSchemas[set]!.get(typeName)!;
    const desc = registries[set].getMessage(typeName)!;
    expect(toJsonString(T, create(T), options)).not.toContain('"[');
    for (const bytes of [new Uint8Array(0), T.encode(fields)]) {
      const theirs = es.toJson(desc, es.fromBinary(desc, bytes), { alwaysEmitImplicit: true, registry: registries[set] });
      const written = {
        "generated writer": toJsonString(T, T.decode(bytes), options),
        "codec, a view": toJsonString(T, T.view(bytes), options),
        "codec, decodeToJsonString": decodeToJsonString(T, bytes, options),
        "JS writer, a view": inJs(() => toJsonString(T, T.view(bytes), options)),
        "codec, a plain object of the interpreted type": toJsonString(I, I.decode(bytes), options),
        "interpreted writer": inJs(() => toJsonString(I, I.decode(bytes), options)),
        "runtime schema, a plain object": toJsonString(R, R.decode(bytes), options),
        "runtime schema, decodeToJsonString": decodeToJsonString(R, bytes, options),
        "runtime schema, interpreted writer": inJs(() => toJsonString(R, R.view(bytes), options)),
      };
      for (const [path, text] of Object.entries(written)) expect(JSON.parse(text), `${typeName} ${path}`).toEqual(theirs);
    }
  });
});
