// The codec's ProtoJSON reader (cpp/include/hppproto/json_decoder.hpp): fromJsonString() and
// encodeFromJsonString() read the forms serializers write in WASM and hand everything else to the
// JS reader. What it reads must be what the JS reader (fromJson() of JSON.parse's value) makes of
// the same text, and it must read most texts itself, or it is dead weight.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { init, JsonError, toJsonString, fromJson, fromJsonString, encodeFromJsonString, decodeToJsonString } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { encodeWithProtobufjs, loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { thrown } from "./support/thrown.js";
import { collidingKeys } from "./support/collisions.mjs";
import * as conf3 from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import * as conf2 from "./gen/conformance/google/protobuf/test_messages_proto2_pb.js";

beforeAll(async () => {
  await init();
});

/** Counts the texts the codec read itself (jsonDecode returned a record). */
function countCodecReads(): { read: number; handed: number } {
  const rt = runtime().full!;
  const original = rt.jsonDecode.bind(rt);
  const counts = { read: 0, handed: 0 };
  vi.spyOn(rt, "jsonDecode").mockImplementation((...args: Parameters<typeof rt.jsonDecode>) => {
    const rec = original(...args);
    if (rec !== 0) counts.read++;
    else counts.handed++;
    return rec;
  });
  return counts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const sets = { unittest: loadSet("unittest"), conformance: loadSet("conformance") };

describe.each(Object.entries(sets))("every message of the %s schemas", (_name, loaded) => {
  const names = [...loaded.types.keys()].sort();
  it("10 random messages each, as JSON and with .proto names: read as the JS reader reads them", () => {
    const counts = countCodecReads();
    let texts = 0;
    for (const typeName of names) {
      const model = loaded.models.get(typeName)!;
      if (requiresItself(model) || model.messageSet) continue;
      const type = loaded.types.get(typeName)!;
      const r = rng(typeName.length * 7919 + 11);
      for (let i = 0; i < 10; i++) {
        const plain = type.decode(encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r)));
        let text: string;
        try {
          text = toJsonString(type, plain, { useProtoNames: i % 2 === 1 });
        } catch (e) {
          if (e instanceof JsonError) continue; // a value ProtoJSON cannot hold (a Timestamp out of range, say)
          throw e;
        }
        texts++;
        const reference = fromJson(type, JSON.parse(text));
        expect(fromJsonString(type, text), text).toEqual(reference);
        expect(encodeFromJsonString(type, text), text).toEqual(type.encode(reference));
      }
    }
    // two reads a text; the schemas are full of well-known types and closed enums, which stay the
    // JS reader's (about a quarter of the texts)
    expect(counts.read).toBeGreaterThan(texts * 2 * 0.6);
  });
});

describe("values", () => {
  const T = conf3.TestAllTypesProto3;

  it("doubles: every one JS prints reads back as the same double", () => {
    const r = rng(42);
    const read = (values: number[]) => {
      const texts = values.map((d) => String(d));
      for (let i = 0; i < texts.length; i += 500) {
        const chunk = texts.slice(i, i + 500);
        expect(fromJsonString(T, `{"repeatedDouble": [${chunk.join(",")}]}`).repeatedDouble).toEqual(chunk.map(Number));
      }
    };
    // any double: most have exponents the codec leaves to the JS reader
    const bits = new DataView(new ArrayBuffer(8));
    const any: number[] = [];
    while (any.length < 4000) {
      bits.setUint32(0, (r() * 2 ** 32) >>> 0);
      bits.setUint32(4, (r() * 2 ** 32) >>> 0);
      const d = bits.getFloat64(0);
      if (Number.isFinite(d)) any.push(d);
    }
    read(any);
    // up to 19 digits between 1e-19 and 1e19, which the codec rounds itself: every chunk read there
    const counts = countCodecReads();
    const decimals: number[] = [];
    for (let i = 0; i < 4000; i++) {
      let digits = String(1 + Math.floor(r() * 9));
      for (let n = Math.floor(r() * 19); n > 0; n--) digits += String(Math.floor(r() * 10));
      const lowest = -19, highest = 19 - digits.length;
      decimals.push((r() < 0.5 ? -1 : 1) * Number(`${digits}e${lowest + Math.floor(r() * (highest - lowest + 1))}`));
    }
    read(decimals);
    expect(counts).toEqual({ read: 8, handed: 0 });
  });

  it("decimals the codec rounds exactly: halfway cases, 19 digits, exponents at ±19", () => {
    const cases = [
      "0.30000000000000004", "9007199254740993", "9007199254740995", "1234567890123456789", "9999999999999999999",
      "1.2345678901234567e-19", "4.9406564584124654e-19", "1.7976931348623157e19", "0.1", "-0.0", "0", "2.5e-7",
      "123456789012345.67", "1e19", "1e-19", "8.98846567431158e17",
    ];
    const got = fromJsonString(T, `{"repeatedDouble": [${cases.join(",")}], "repeatedFloat": [${cases.join(",")}]}`);
    expect(got.repeatedDouble).toEqual(cases.map(Number));
    expect(got.repeatedFloat).toEqual(cases.map((c) => Math.fround(Number(c))));
    // 16-19 digits times a power of ten (a 128-bit product), read by the codec itself
    const counts = countCodecReads();
    const products = ["1.2345678901234567e+21", "9.999999999999999e+22", "1.7976931348623157e+26", "4.503599627370497e+30", "0.30000000000000004"];
    expect(fromJsonString(T, `{"repeatedDouble": [${products.join(",")}]}`).repeatedDouble).toEqual(products.map(Number));
    expect(counts).toEqual({ read: 1, handed: 0 });
  });

  it("strings: escapes, pairs of surrogate escapes, UTF-8 as given", () => {
    const got = fromJsonString(T, '{"optionalString": "a\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00 caf\u00e9 \ud83d\ude00 \ufffd"}');
    expect(got.optionalString).toBe('a"b\\c/\b\f\n\r\t\u00e9\u{1f600} caf\u00e9 \u{1f600} \ufffd');
  });

  it("strings: escapes after runs of every length up to 17, at the start and the end, next to UTF-8, read by the codec as JSON.parse reads them", () => {
    const counts = countCodecReads();
    const escapes = ['"', "\\", "\n", "\u0001", "\u00e9", "\u{1f600}", "/"];
    const runs = ["", ...Array.from({ length: 17 }, (_, n) => "abcdefghijklmnopq".slice(0, n + 1)), "caf\u00e9 d\u00e9j\u00e0", "\u{1f600}\u{1f600}xx"];
    const strings: string[] = [];
    for (const run of runs) for (const e of escapes) strings.push(run + e + run, e + run + e + e, run + e, e.repeat(9) + run);
    // Two ways through the codec: a string is decoded into the arena's free space as it is read
    // when the rest of the text fits there (this text is smaller than the arena's 64 KB first
    // block), else measured first. 4 MB of bytes after the strings: larger than any block this
    // file's arena has grown to, so every string is measured first.
    const text = JSON.stringify({ repeatedString: strings });
    const measured = JSON.stringify({ repeatedString: strings, optionalBytes: "AAAA".repeat(1 << 20) });
    for (const t of [text, measured]) {
      expect(fromJsonString(T, t).repeatedString).toEqual(JSON.parse(t).repeatedString);
      expect(T.decode(encodeFromJsonString(T, t)).repeatedString).toEqual(strings);
    }
    expect(counts).toEqual({ read: 4, handed: 0 });
  });

  it("strings: a string cut off inside an escape or its run, at any point, is an error and the next text reads whole", () => {
    const value = String.raw`ab\"cdefghij\u00e9klmnopqr\ud83d\ude00st\n` + "caf\u00e9";
    for (let cut = 0; cut < value.length; cut++) {
      for (const rest of ["", "\"", "\\"]) {
        const text = `{"optionalString": "${value.slice(0, cut)}${rest}`;
        expect(thrown(() => fromJsonString(T, text), JsonError)[0]).toBe("INVALID_JSON");
      }
    }
    expect(fromJsonString(T, `{"optionalString": "${value}"}`).optionalString).toBe(JSON.parse(`"${value}"`));
  });

  it("strings of ASCII text are slices of it; the next binary decode in the same buffer reads its own bytes", () => {
    const got = fromJsonString(T, '{"optionalString": "plain ascii, longer than twelve", "repeatedString": ["a\\nb", "bcdefghijklmnop", "x"]}');
    expect(got.optionalString).toBe("plain ascii, longer than twelve");
    expect(got.repeatedString).toEqual(["a\nb", "bcdefghijklmnop", "x"]);
    // the same bytes, the same staging buffer: what decode() reads must not come from the old text
    const bytes = T.encode({ optionalString: "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ" });
    expect(T.decode(bytes).optionalString).toBe("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ");
    expect(encodeFromJsonString(T, '{"optionalString": "plain ascii, longer than twelve"}')).toEqual(T.encode({ optionalString: "plain ascii, longer than twelve" }));
    expect(T.decode(bytes).optionalString).toBe("ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ");
  });

  it("a lone surrogate, escaped or in the text itself, is an error, not U+FFFD", () => {
    expect(thrown(() => fromJsonString(T, '{"optionalString": "\\ud800"}'), JsonError)[0]).toBe("INVALID_VALUE");
    expect(thrown(() => fromJsonString(T, '{"optionalString": "x\ud800y"}'), JsonError)[0]).toBe("INVALID_VALUE");
    expect(thrown(() => fromJsonString(T, '{"mapStringString": {"\udc00": "v"}}'), JsonError)[0]).toBe("INVALID_VALUE");
  });

  it("integers at their bounds, as numbers and strings; one past is out of range", () => {
    const got = fromJsonString(T, '{"optionalInt32": -2147483648, "optionalUint32": "4294967295", "optionalInt64": "-9223372036854775808", "optionalUint64": 18446744073709551615, "optionalSint64": 9223372036854775807, "optionalFixed32": 0}');
    expect(got).toMatchObject({ optionalInt32: -2147483648, optionalUint32: 4294967295, optionalInt64: -9223372036854775808n, optionalUint64: 18446744073709551615n, optionalSint64: 9223372036854775807n, optionalFixed32: 0 });
    expect(thrown(() => fromJsonString(T, '{"optionalUint64": 18446744073709551616}'), JsonError)[0]).toBe("VALUE_OUT_OF_RANGE");
    expect(thrown(() => fromJsonString(T, '{"optionalInt32": "-2147483649"}'), JsonError)[0]).toBe("VALUE_OUT_OF_RANGE");
  });

  it("bytes: standard and URL-safe base64, padded or not", () => {
    const got = fromJsonString(T, '{"repeatedBytes": ["AP8K", "AP8=", "AP8", "-_-_", ""]}');
    expect(got.repeatedBytes).toEqual([new Uint8Array([0, 255, 10]), new Uint8Array([0, 255]), new Uint8Array([0, 255]), new Uint8Array([251, 255, 191]), new Uint8Array([])]);
    expect(thrown(() => fromJsonString(T, '{"optionalBytes": "A"}'), JsonError)[0]).toBe("INVALID_VALUE");
  });

  it("maps: keys of every kind; a key written twice, even differently, is a duplicate key", () => {
    const got = fromJsonString(T, '{"mapInt64Int64": {"-5": "7", "9223372036854775807": 1}, "mapBoolBool": {"true": false}, "mapStringNestedMessage": {"k": {"a": 1}, "\\u006b2": {}}}');
    expect(got.mapInt64Int64).toEqual({ "-5": 7n, "9223372036854775807": 1n });
    expect(got.mapBoolBool).toEqual({ true: false });
    expect(got.mapStringNestedMessage).toEqual({ k: { a: 1, corecursive: undefined }, k2: { a: 0, corecursive: undefined } });
    expect(thrown(() => fromJsonString(T, '{"mapStringString": {"k": "1", "\\u006b": "2"}}'), JsonError)[0]).toBe("INVALID_JSON");
    const many = Array.from({ length: 40 }, (_, i) => `"${i}": ${i}`);
    expect(Object.keys(fromJsonString(T, `{"mapInt32Int32": {${many.join(",")}}}`).mapInt32Int32)).toHaveLength(40);
    expect(thrown(() => fromJsonString(T, `{"mapInt32Int32": {${many.join(",")}, "17": 0}}`), JsonError)[0]).toBe("INVALID_JSON");
  });

  it("fields by either name, oneofs, null as absent; duplicates and second oneof members are errors", () => {
    expect(fromJsonString(T, '{"optional_int32": 1, "oneofUint32": 5, "optionalNestedMessage": null}')).toMatchObject({ optionalInt32: 1, oneofField: { case: "oneofUint32", value: 5 } });
    expect(thrown(() => fromJsonString(T, '{"optionalInt32": 1, "optional_int32": 2}'), JsonError)[0]).toBe("DUPLICATE_FIELD");
    expect(thrown(() => fromJsonString(T, '{"oneofUint32": 1, "oneofString": "x"}'), JsonError)[0]).toBe("DUPLICATE_FIELD");
  });

  it("proto2: explicit presence, defaults and closed enums as the JS reader keeps them", () => {
    const P = conf2.TestAllTypesProto2;
    const text = '{"optionalInt32": 0, "optionalNestedEnum": "BAZ", "repeatedNestedEnum": [1, 2], "defaultInt32": -123456789}';
    expect(fromJsonString(P, text)).toEqual(fromJson(P, JSON.parse(text)));
    const unknownNumber = '{"optionalNestedEnum": 7}'; // not a value of the closed enum: kept as an unknown field
    expect(fromJsonString(P, unknownNumber)).toEqual(fromJson(P, JSON.parse(unknownNumber)));
  });

  it("after text the codec hands over, the runtime reads the next text itself", () => {
    const counts = countCodecReads();
    expect(thrown(() => fromJsonString(T, '{"optionalInt32": 1, "optionalInt32": 2}'), JsonError)[0]).toBe("INVALID_JSON");
    expect(fromJsonString(T, '{"optionalInt32": 3}').optionalInt32).toBe(3);
    expect(counts).toEqual({ read: 1, handed: 1 });
  });
});

describe("map keys crafted to collide in the codec's duplicate-key check (test/support/collisions.mjs)", () => {
  const T = conf3.TestAllTypesProto3;
  const keys: string[] = collidingKeys(10); // 1,024 distinct keys of one FNV-1a hash
  const map = Object.fromEntries(keys.map((k, i) => [k, String(i)]));
  const text = JSON.stringify({ mapStringString: map });

  it("are distinct keys to the codec's reader and writer; one of them given twice is a duplicate", () => {
    const counts = countCodecReads();
    expect(fromJsonString(T, text).mapStringString).toEqual(map);
    expect(T.decode(encodeFromJsonString(T, text)).mapStringString).toEqual(map);
    expect(counts).toEqual({ read: 2, handed: 0 }); // no duplicate seen where there is none
    const bytes = T.encode({ mapStringString: map });
    const written = vi.spyOn(runtime().full!, "jsonEncode");
    expect(JSON.parse(decodeToJsonString(T, bytes))).toEqual({ mapStringString: map });
    expect(typeof written.mock.results[0]!.value).toBe("string"); // the codec wrote it

    for (const [from, to] of [[3, 1000], [1023, 0], [500, 501]] as const) {
      const twice = text.replace(`"${keys[to]!}"`, `"${keys[from]!}"`);
      expect(thrown(() => fromJsonString(T, twice), JsonError)[0]).toBe("INVALID_JSON");
      expect(thrown(() => encodeFromJsonString(T, twice), JsonError)[0]).toBe("INVALID_JSON");
    }
    // a key repeated on the wire: the later value, as for any map (the codec leaves it to the JS writer)
    const again = new Uint8Array([...bytes, ...T.encode({ mapStringString: { [keys[3]!]: "again" } })]);
    expect(JSON.parse(decodeToJsonString(T, again)).mapStringString).toEqual({ ...map, [keys[3]!]: "again" });
  });
});

describe("the staged text", () => {
  it("is read whole after the staging buffer moved and after memory grew (the subarray it is encoded into is made again)", () => {
    const T = conf3.TestAllTypesProto3;
    const text = (n: number, c: string) => `{"optionalInt32":${n},"optionalString":"${c.repeat(n)}"}`;
    for (const [n, c] of [[10, "a"], [100_000, "b"], [20, "c"], [3_000_000, "d"], [30, "e"], [5, "é"]] as const) {
      const m = fromJsonString(T, text(n, c));
      // (booleans: a failure would print megabytes)
      expect(m.optionalString === c.repeat(n), `${n} ${c}`).toBe(true);
      expect(m.optionalInt32).toBe(n);
      expect(toJsonString(T, T.decode(encodeFromJsonString(T, text(n, c)))) === text(n, c), `${n} ${c}`).toBe(true);
    }
    // memory grown by a decode between reads of small texts (the staging buffer stays where it was)
    const small = fromJsonString(T, text(7, "x"));
    const before = runtime().mem.memory.buffer.byteLength;
    T.decode(T.encode({ optionalBytes: new Uint8Array(before) }));
    expect(runtime().mem.memory.buffer.byteLength).toBeGreaterThan(before);
    expect(fromJsonString(T, text(8, "y")).optionalString).toBe("yyyyyyyy");
    expect(toJsonString(T, T.decode(encodeFromJsonString(T, text(6, "w"))))).toBe(text(6, "w"));
    expect(small.optionalString).toBe("xxxxxxx");
  });
});

describe("JSON values (fromJson)", () => {
  it("read as their text is: a \"__proto__\" key is an own key of a map, nothing reaches a prototype", () => {
    const T = conf3.TestAllTypesProto3;
    const text = '{"mapStringString":{"__proto__":"x","a":"b"},"optionalNestedMessage":{"a":3},"repeatedInt32":[1,2]}';
    const m = fromJson(T, JSON.parse(text));
    expect(m).toEqual(fromJsonString(T, text));
    expect(Object.hasOwn(m.mapStringString, "__proto__")).toBe(true);
    expect(m.mapStringString["__proto__"]).toBe("x");
    expect(Object.getPrototypeOf(m.mapStringString)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
    expect(() => fromJson(T, JSON.parse('{"__proto__":{"optionalInt32":1}}'))).toThrow(/UNKNOWN_FIELD|has no field/);
  });
});
