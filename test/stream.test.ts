// The streaming writer (checked against protobufjs's decoding and hppproto's encoder) and
// length-delimited streams read from chunks cut anywhere.
import { Readable } from "node:stream";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { DecodeError, DelimitedReader, decodeStream, EncodeError, init, Writer } from "hppproto";
import { loadSet, rng } from "./support/protos.js";
import * as p3 from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";

beforeAll(async () => {
  await init();
});

const loaded = loadSet("unittest");
const All3 = p3.TestAllTypes;
const pbAll3 = () => loaded.pbType("proto3_unittest.TestAllTypes");

describe("Writer", () => {
  it("writes every scalar kind as the generated encoder does", () => {
    const w = new Writer(16); // small: growth is exercised
    w.int32(1, -5).int64(2, -(1n << 62n)).uint32(3, 4294967295).uint64(4, 18446744073709551615n)
      .sint32(5, -3).sint64(6, -4n).fixed32(7, 7).fixed64(8, 8n).sfixed32(9, -9).sfixed64(10, -10n)
      .float(11, 1.5).double(12, -0).bool(13, true).string(14, "h\u00e9llo \u{1F600}").bytes(15, new Uint8Array([1, 2]));
    w.fork(18).int32(1, 150).join();
    w.packedInt32(31, [1, -1, 300]).packedDouble(42, new Float64Array([0.5, 2])).packedSint64(36, [-1n, 5n]);
    w.enum(22, 2);
    const expected = All3.encode({
      optionalInt32: -5, optionalInt64: -(1n << 62n), optionalUint32: 4294967295, optionalUint64: 18446744073709551615n,
      optionalSint32: -3, optionalSint64: -4n, optionalFixed32: 7, optionalFixed64: 8n, optionalSfixed32: -9,
      optionalSfixed64: -10n, optionalFloat: 1.5, optionalDouble: -0, optionalBool: true,
      optionalString: "h\u00e9llo \u{1F600}", optionalBytes: new Uint8Array([1, 2]), optionalNestedMessage: { bb: 150 },
      repeatedInt32: [1, -1, 300], repeatedDouble: [0.5, 2], repeatedSint64: [-1n, 5n], optionalForeignEnum: 2,
    });
    const bytes = w.finish();
    // same fields, written in the order the hand-rolled code chose: compare decoded, and via protobufjs
    expect(All3.decode(bytes)).toEqual(All3.decode(expected));
    const pb = pbAll3().decode(bytes).toJSON();
    expect(pb["optional_string"]).toBe("h\u00e9llo \u{1F600}");
    expect(pb["optional_nested_message"]).toEqual({ bb: 150 });
  });

  it("64-bit values of every kind, as bigint and number, at their edges, byte for byte as protobufjs writes them", () => {
    const signed = [0n, 1n, -1n, 127n, 128n, -128n, (1n << 31n) - 1n, -(1n << 31n), 1n << 32n, -(1n << 32n), (1n << 53n) - 1n, -((1n << 53n) - 1n), 1n << 62n, (1n << 63n) - 1n, -(1n << 63n)];
    const unsigned = [0n, 1n, 127n, 128n, (1n << 32n) - 1n, 1n << 32n, (1n << 53n) - 1n, 1n << 63n, (1n << 64n) - 1n];
    const kinds = [["int64", signed], ["sint64", signed], ["sfixed64", signed], ["uint64", unsigned], ["fixed64", unsigned]] as const;
    for (const [kind, values] of kinds) {
      for (const v of values) {
        const pb = new Uint8Array(protobuf.Writer.create()[kind](v.toString() as never).finish());
        const ours = new Writer(16);
        expect(ours[kind](1, v).finish().subarray(1), `${kind} ${v}`).toEqual(pb);
        if (Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v) {
          expect(new Writer(16)[kind](1, Number(v)).finish().subarray(1), `${kind} ${v} as a number`).toEqual(pb);
        }
      }
    }
    for (const [kind, values] of [["packedInt64", signed], ["packedSint64", signed], ["packedUint64", unsigned]] as const) {
      const pbKind = ({ packedInt64: "int64", packedSint64: "sint64", packedUint64: "uint64" } as const)[kind];
      const pb = protobuf.Writer.create();
      for (const v of values) pb[pbKind](v.toString() as never);
      expect(new Writer(16)[kind](1, values).finish().subarray(2), kind).toEqual(new Uint8Array(pb.finish()));
    }
    expect(() => new Writer().int64(1, 1n << 63n)).toThrow(expect.objectContaining({ code: "VALUE_OUT_OF_RANGE" }));
    expect(() => new Writer().uint64(1, -1)).toThrow(expect.objectContaining({ code: "VALUE_OUT_OF_RANGE" }));
    expect(() => new Writer().fixed64(1, 2 ** 64)).toThrow(expect.objectContaining({ code: "VALUE_OUT_OF_RANGE" }));
    expect(new Writer().uint64(1, 2 ** 63).finish().subarray(1)).toEqual(new Uint8Array(protobuf.Writer.create().uint64("9223372036854775808").finish()));
  });

  it("strings short and long, every UTF-8 length, as TextEncoder encodes them", () => {
    const r = rng(7);
    const pieces = ["a", "\u00e9", "\u20ac", "\u{1F600}", "\u07ff", "\u0800", "\uffff", "\u{10000}", "\u{10FFFF}"];
    for (const length of [0, 1, 5, 63, 64, 65, 200]) {
      let s = "";
      while (s.length < length) s += pieces[Math.floor(r() * pieces.length)];
      const w = new Writer(8).string(1, s);
      expect(All3.decode(new Writer(8).string(14, s).finish()).optionalString).toBe(s);
      const bytes = w.finish();
      const utf8 = new TextEncoder().encode(s);
      expect(bytes.subarray(bytes.length - utf8.length)).toEqual(utf8);
    }
  });

  it("forks nest deeper than the first stack, and finishInto copies small and large messages", () => {
    const w = new Writer(8);
    for (let i = 0; i < 40; i++) w.fork(18);
    w.int32(1, 1);
    for (let i = 0; i < 40; i++) w.join();
    const bytes = w.finish();
    const reader = protobuf.Reader.create(bytes);
    for (let i = 0; i < 40; i++) {
      expect(reader.uint32()).toBe((18 << 3) | 2);
      expect(reader.uint32()).toBe(bytes.length - reader.pos);
    }
    expect([reader.uint32(), reader.int32(), reader.pos]).toEqual([1 << 3, 1, bytes.length]);
    for (const size of [10, 5000]) {
      const big = new Writer(8).bytes(15, new Uint8Array(size).fill(3));
      const target = new Uint8Array(size + 20).fill(9);
      const n = big.finishInto(target, 7);
      expect(target.subarray(7, 7 + n)).toEqual(big.finish());
      expect([target[6], target[7 + n]]).toEqual([9, 9]);
    }
  });

  it("checks values as encode() does: no boolean from a string, no NaN from text", () => {
    const w = new Writer();
    for (const [write, path] of [
      [() => w.bool(1, "no" as never), "field 1"], [() => w.double(2, "abc" as never), "field 2"], [() => w.float(3, 1n as never), "field 3"],
      [() => w.packedBool(4, [true, "x" as never]), "field 4[1]"], [() => w.packedDouble(5, [1, "2" as never]), "field 5[1]"],
      [() => w.packedFloat(6, [null as never]), "field 6[0]"],
    ] as const) {
      expect(write).toThrow(expect.objectContaining({ code: "INVALID_VALUE", path }));
    }
    expect(w.length).toBe(0); // nothing of a refused field was written
    expect(All3.decode(w.packedDouble(42, [0.5, 2]).packedFloat(41, new Float32Array([1.5])).bool(13, false).double(12, NaN).finish()))
      .toMatchObject({ repeatedDouble: [0.5, 2], repeatedFloat: [1.5], optionalDouble: NaN });
  });

  it("back-patches nested lengths of every size, depth after depth", () => {
    for (const size of [0, 1, 127, 128, 16383, 16384, 200_000]) {
      const w = new Writer(8);
      w.fork(18).fork(1).bytes(2, new Uint8Array(size).fill(7)).join().join();
      const bytes = w.finish();
      const reader = protobuf.Reader.create(bytes);
      expect(reader.uint32()).toBe((18 << 3) | 2);
      const outer = reader.uint32();
      expect(outer).toBe(bytes.length - reader.pos);
      expect(reader.uint32()).toBe((1 << 3) | 2);
      expect(reader.uint32()).toBe(bytes.length - reader.pos);
      expect(reader.uint32()).toBe((2 << 3) | 2);
      expect(reader.bytes().length).toBe(size);
    }
  });

  it("is reused without reallocating, and delimited messages read back with viewDelimited", () => {
    const w = new Writer();
    for (let round = 0; round < 3; round++) {
      w.reset();
      for (let i = 0; i < 100; i++) w.forkDelimited().int32(1, i).string(14, "x".repeat(i)).join();
      const views = All3.viewDelimited(w.finish());
      expect(views.map((v) => v.optionalString.length)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    }
  });

  it("unbalanced join/finish, bad values and field numbers are clear errors; a bad packed run is taken back", () => {
    const w = new Writer();
    expect(() => w.join()).toThrow(expect.objectContaining({ code: "UNBALANCED" }));
    w.fork(1);
    expect(() => w.finish()).toThrow(expect.objectContaining({ code: "UNBALANCED" }));
    w.join();
    expect(() => w.int32(1, 2 ** 31)).toThrow(expect.objectContaining({ code: "VALUE_OUT_OF_RANGE", path: "field 1" }));
    expect(() => w.uint64(1, -1n)).toThrow(EncodeError);
    expect(() => w.string(1, "\ud800")).toThrow(expect.objectContaining({ code: "INVALID_UTF16" }));
    expect(() => w.int32(0, 1)).toThrow(/field numbers/);
    const before = w.length;
    expect(() => w.packedInt32(5, [1, 2, 1.5])).toThrow(expect.objectContaining({ path: "field 5[2]" }));
    expect(w.length).toBe(before);
    const target = new Uint8Array(1).fill(9);
    w.int32(1, 300);
    expect(() => w.finishInto(target)).toThrow(expect.objectContaining({ code: "BUFFER_TOO_SMALL" }));
    expect(target[0]).toBe(9);
  });
});

describe("delimited streams", () => {
  const messages = Array.from({ length: 300 }, (_, i) => ({ optionalInt32: i, optionalString: "tick ".repeat(i % 40) }));
  const stream = () => All3.encodeDelimited(messages);

  /** The stream cut at random places, including inside length prefixes and at every byte near the start. */
  function cuts(bytes: Uint8Array, seed: number): Uint8Array[] {
    const r = rng(seed);
    const out: Uint8Array[] = [];
    for (let p = 0; p < bytes.length; ) {
      const n = p < 20 ? 1 : 1 + Math.floor(r() * 300);
      out.push(bytes.slice(p, p + n));
      p += n;
    }
    return out;
  }

  it("a reader fed chunks cut anywhere yields every message once, in order", () => {
    for (const seed of [1, 2, 3]) {
      const reader = new DelimitedReader(All3);
      const got: number[] = [];
      for (const chunk of cuts(stream(), seed)) for (const m of reader.push(chunk)) got.push(m.optionalInt32);
      reader.close();
      expect(got).toEqual(messages.map((m) => m.optionalInt32));
      expect(reader.messages).toBe(300);
    }
  });

  it("views from chunks, and chunks the caller reuses afterwards", () => {
    const reader = new DelimitedReader(All3);
    const bytes = stream();
    const scratch = new Uint8Array(97);
    const got: string[] = [];
    for (let p = 0; p < bytes.length; p += 97) {
      const n = Math.min(97, bytes.length - p);
      scratch.set(bytes.subarray(p, p + n));
      for (const v of reader.pushViews(scratch.subarray(0, n))) got.push(v.optionalString);
      scratch.fill(0xff); // the reader must have copied what it still needs
    }
    expect(got).toEqual(messages.map((m) => m.optionalString));
  });

  it("decodeStream reads a Node stream and a ReadableStream", async () => {
    const chunks = cuts(stream(), 7);
    const fromNode: number[] = [];
    for await (const m of decodeStream(All3, Readable.from(chunks))) fromNode.push(m.optionalInt32);
    expect(fromNode).toHaveLength(300);
    const web = new ReadableStream<Uint8Array>({
      start(c) {
        for (const ch of chunks) c.enqueue(ch);
        c.close();
      },
    });
    const fromWeb: number[] = [];
    for await (const m of decodeStream(All3, web)) fromWeb.push(m.optionalInt32);
    expect(fromWeb).toEqual(fromNode);
  });

  it("a stream that ends inside a message, or holds a bad one, fails with its stream offset and message number", async () => {
    const bytes = stream();
    const cut = bytes.subarray(0, bytes.length - 3);
    const reader = new DelimitedReader(All3);
    reader.push(cut);
    expect(() => reader.close()).toThrow(expect.objectContaining({ code: "TRUNCATED", path: "proto3_unittest.TestAllTypes[#299]" }));
    await expect(async () => {
      for await (const _ of decodeStream(All3, Readable.from([cut]))) void _;
    }).rejects.toThrow(DecodeError);

    // message #2 holds a string that is not UTF-8
    const good = All3.encodeDelimited([{ optionalInt32: 1 }, { optionalInt32: 2 }]);
    const bad = new Uint8Array([4, 0x72, 2, 0xff, 0xfe]);
    const r2 = new DelimitedReader(All3);
    expect(r2.push(good)).toHaveLength(2);
    let error: DecodeError | undefined;
    try {
      r2.push(bad);
    } catch (e) {
      error = e as DecodeError;
    }
    expect(error?.code).toBe("INVALID_UTF8");
    expect(error?.path).toMatch(/\[#2\]/);
    expect(error?.offset).toBe(good.length + 3);
    expect(() => r2.push(good)).toThrow(DecodeError); // a broken stream stays broken

    // a length prefix beyond the size limit is refused before the bytes arrive
    const huge = new DelimitedReader(All3);
    expect(() => huge.push(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(expect.objectContaining({ code: "MESSAGE_TOO_LARGE" }));
  });
});
