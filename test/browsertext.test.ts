// The runtime as browsers run it: without Node's Buffer, strings are built, encoded and escaped by
// JS loops up to longer lengths (memory.ts, wirebuffer.ts, fill.ts, json/write.ts). A second copy of
// the runtime is loaded with Buffer hidden, and strings at every length around those thresholds,
// with non-ASCII text and lone surrogates at each place, are checked against TextEncoder,
// TextDecoder and JSON.stringify.
import { beforeAll, describe, expect, it, vi } from "vitest";

type Runtime = typeof import("hppproto");
type Generated = typeof import("./gen/conformance/google/protobuf/test_messages_proto3_pb.js");

let hp: Runtime;
let conf3: Generated;

beforeAll(async () => {
  vi.resetModules();
  vi.stubGlobal("Buffer", undefined);
  try {
    hp = await import("hppproto");
    conf3 = await import("./gen/conformance/google/protobuf/test_messages_proto3_pb.js");
    await hp.init();
  } finally {
    vi.unstubAllGlobals();
  }
  vi.resetModules();
});

const utf8 = new TextEncoder();

function varint(n: number): number[] {
  const out: number[] = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return out;
}

/** Strings of each length to 300 (and a few longer), ASCII or with `special` at each of some places. */
function* strings(): Generator<string> {
  const specials = ["é", "€", "😀", "\u007f", "\u0080", '"', "\\", "\n"];
  const lengths = [...Array.from({ length: 301 }, (_, i) => i), 511, 512, 513, 1000];
  for (const length of lengths) {
    const ascii = Array.from({ length }, (_, i) => String.fromCharCode(0x20 + ((i * 37) % 95))).join("");
    yield ascii;
    if (length === 0) continue;
    for (const special of specials) {
      for (const at of new Set([0, length >> 1, length - 1])) yield ascii.slice(0, at) + special + ascii.slice(at + 1);
    }
  }
}

describe("strings without Buffer", () => {
  it("encode, decode, build and write ProtoJSON as TextEncoder, TextDecoder and JSON.stringify say", () => {
    const T = conf3.TestAllTypesProto3;
    let checked = 0;
    for (const s of strings()) {
      const bytes = utf8.encode(s);
      // field 14, optional_string (proto3: an empty one is not written)
      const expected = s === "" ? new Uint8Array(0) : Uint8Array.from([0x72, ...varint(bytes.length), ...bytes]);
      expect(T.encode({ optionalString: s }), s).toEqual(expected);
      const b = hp.builder(T);
      b.optionalString = s;
      expect(T.encode(b), s).toEqual(expected);
      expect(T.decode(expected).optionalString).toBe(s);
      expect(T.view(expected).optionalString).toBe(s);
      expect(hp.toJsonString(T, { optionalString: s })).toBe(s === "" ? "{}" : `{"optionalString":${JSON.stringify(s)}}`);
      expect(hp.fromJsonString(T, `{"optionalString":${JSON.stringify(s)}}`).optionalString).toBe(s);
      checked++;
    }
    expect(checked).toBeGreaterThan(7_000);
  });

  it("refuses lone surrogates at every length, in encode and in builders, and escapes them in ProtoJSON", () => {
    const T = conf3.TestAllTypesProto3;
    for (const length of [1, 2, 64, 65, 255, 256, 257, 300]) {
      for (const lone of ["\ud800", "\udc00"]) {
        for (const at of new Set([0, length >> 1, length - 1])) {
          const s = "a".repeat(at) + lone + "b".repeat(length - at - 1);
          expect(() => T.encode({ optionalString: s }), `${length} ${at}`).toThrow(hp.EncodeError);
          const b = hp.builder(T);
          expect(() => (b.optionalString = s)).toThrow(/surrogate/);
          expect(hp.toJsonString(T, { optionalString: s })).toBe(`{"optionalString":${JSON.stringify(s)}}`);
        }
      }
    }
  });

  it("a second copy of the runtime was loaded, without Buffer", async () => {
    const mine = await import("hppproto");
    expect(mine).not.toBe(hp);
  });
});
