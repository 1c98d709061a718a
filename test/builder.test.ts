// Builders: messages set field by field in linear memory, encoded without a plain object, reused
// with $clear(). Their bytes are checked against encode() of the same plain object and against
// protobufjs's decoding of them.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { DecodeError, EncodeError, init, StaleViewError, builder } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { crossCheck, loadSet } from "./support/protos.js";
import * as p3 from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";
import * as p2 from "./gen/unittest/google/protobuf/unittest_pb.js";
import * as maps from "./gen/unittest/google/protobuf/map_unittest_pb.js";
import * as imp from "./gen/unittest/google/protobuf/unittest_import_pb.js";
import { SmallOneofs } from "./gen/names/limits_pb.js";
import { repoRoot } from "./support/paths.js";

beforeAll(async () => {
  await init();
});

const loaded = loadSet("unittest");
const All3 = p3.TestAllTypes;

describe("builders", () => {
  it("set every kind of field, read it back through the view getters, and encode as encode(plain) does", () => {
    const b = builder(All3);
    b.optionalInt32 = -7;
    b.optionalInt64 = 1n << 40n;
    b.optionalUint64 = 18446744073709551615n;
    b.optionalDouble = -0;
    b.optionalBool = true;
    b.optionalString = "héllo";
    b.optionalBytes = new Uint8Array([0, 1, 255]);
    b.mutableOptionalNestedMessage().bb = 12;
    b.repeatedDouble = new Float64Array([1.5, 2.5]);
    b.addRepeatedDouble(3.5);
    b.addRepeatedString("a");
    b.addRepeatedString("b");
    b.addRepeatedNestedMessage().bb = 1;
    b.addRepeatedNestedMessage().bb = 2;
    b.oneofField = { case: "oneofString", value: "one" };
    expect(b.optionalInt32).toBe(-7);
    expect(b.optionalString).toBe("héllo");
    expect(b.optionalNestedMessage?.bb).toBe(12);
    expect([...b.repeatedDouble]).toEqual([1.5, 2.5, 3.5]);
    expect(b.repeatedNestedMessage.toArray().map((m) => m.bb)).toEqual([1, 2]);
    expect(b.oneofField).toEqual({ case: "oneofString", value: "one" });

    const plain = {
      optionalInt32: -7, optionalInt64: 1n << 40n, optionalUint64: 18446744073709551615n, optionalDouble: -0,
      optionalBool: true, optionalString: "héllo", optionalBytes: new Uint8Array([0, 1, 255]),
      optionalNestedMessage: { bb: 12 }, repeatedDouble: [1.5, 2.5, 3.5], repeatedString: ["a", "b"],
      repeatedNestedMessage: [{ bb: 1 }, { bb: 2 }], oneofField: { case: "oneofString" as const, value: "one" },
    };
    const bytes = All3.encode(b);
    expect(bytes).toEqual(All3.encode(plain));
    crossCheck(loaded, "proto3_unittest.TestAllTypes", bytes);
    expect(All3.encodedSize(b)).toBe(bytes.length);
  });

  it("are the generated classes: a builder is an instance of its class and its view class, sub-builders of theirs (across files too)", () => {
    const b = builder(All3);
    expect(b).toBeInstanceOf(p3.TestAllTypesBuilder);
    expect(b).toBeInstanceOf(p3.TestAllTypesView);
    expect(b.mutableOptionalNestedMessage()).toBeInstanceOf(p3.TestAllTypes_NestedMessageBuilder);
    expect(b.addRepeatedNestedMessage()).toBeInstanceOf(p3.TestAllTypes_NestedMessageBuilder);
    const imported = b.mutableOptionalImportMessage(); // declared in unittest_import.proto's module
    expect(imported).toBeInstanceOf(imp.ImportMessageBuilder);
    imported.d = 4;
    expect(All3.decode(All3.encode(b)).optionalImportMessage).toEqual({ d: 4 });
    b.$release();
  });

  it("a sub-message whose message type never loaded (a bundler dropped its module) gets an interpreted sub-builder that encodes the same", () => {
    const def = p2.TestAllTypes.schemaDef, index = p2.ForeignMessage.index;
    const registered = def.types[index];
    def.types[index] = undefined;
    try {
      const b = builder(p2.TestAllTypes);
      const sub = b.mutableOptionalForeignMessage();
      expect(sub).not.toBeInstanceOf(p2.ForeignMessageBuilder);
      sub.c = 7;
      b.optionalInt32 = 1;
      const bytes = p2.TestAllTypes.encode(b);
      expect(bytes).toEqual(p2.TestAllTypes.encode({ optionalInt32: 1, optionalForeignMessage: { c: 7 } }));
      expect(p2.TestAllTypes.decode(bytes).optionalForeignMessage?.c).toBe(7);
      b.$release();
    } finally {
      def.types[index] = registered;
    }
  });

  it("start from wire bytes, a view or a plain object, unknown fields kept, and change from there", () => {
    const unknown = [0xa0, 0x1f, 0x07]; // field 500, varint 7
    const plain = {
      optionalInt32: 5, optionalString: "héllo", optionalNestedMessage: { bb: 1 }, repeatedInt32: [1, 2], repeatedString: ["a"],
      repeatedNestedMessage: [{ bb: 2 }], mapInt32Int32: {}, oneofField: { case: "oneofUint32" as const, value: 9 },
    };
    const bytes = new Uint8Array([...All3.encode(plain), ...unknown]);
    const expected = { ...All3.decode(bytes), optionalInt32: 6, repeatedInt32: [1, 2, 3], repeatedString: ["a", "b"], optionalNestedMessage: { bb: 10 } };
    expected.repeatedNestedMessage = [{ bb: 2 }, { bb: 3 }];
    for (const from of [() => bytes, () => bytes.buffer, () => All3.view(bytes), () => All3.decode(bytes)]) {
      const b = builder(All3, from());
      expect(b.optionalString).toBe("héllo");
      expect(All3.encode(b)).toEqual(bytes); // unchanged, with the unknown field
      b.optionalInt32 = 6;
      b.addRepeatedInt32(3); // appends to the decoded (borrowed) run
      b.addRepeatedString("b");
      b.mutableOptionalNestedMessage().bb = 10; // the decoded sub-message, changed in place
      b.addRepeatedNestedMessage().bb = 3;
      const back = All3.decode(All3.encode(b));
      expect(back).toEqual(expected);
      expect(Array.from(back.$unknown!)).toEqual(unknown);
      crossCheck(loaded, "proto3_unittest.TestAllTypes", All3.encode(b));
      b.$clear(); // empties it
      expect(All3.encode(b)).toHaveLength(0);
      b.$release();
    }
    // the source can change or go away: the builder has its own copy
    const copy = bytes.slice();
    const b = builder(All3, copy);
    copy.fill(0);
    expect(b.optionalString).toBe("héllo");
    b.$release();
  });

  it("from bad bytes or a bad object: the error, and nothing held", () => {
    const before = runtime().mem.buffer.byteLength;
    expect(() => builder(All3, new Uint8Array([0x0a, 0x05, 0x61]))).toThrow(DecodeError); // a string past the end
    expect(() => builder(All3, { optionalInt32: "x" } as never)).toThrow(/optional_int32/);
    expect(() => builder(All3, 5 as never)).toThrow(TypeError);
    for (let i = 0; i < 2000; i++) expect(() => builder(All3, new Uint8Array([0x0a, 0x05, 0x61]))).toThrow(DecodeError);
    expect(runtime().mem.buffer.byteLength).toBe(before); // each failed builder's arena was freed
    expect(All3.encode(builder(All3, { optionalInt32: 1 }))).toEqual(All3.encode({ optionalInt32: 1 }));
  });

  it("maps and groups from plain values", () => {
    const b = builder(maps.TestMap);
    b.mapInt32Int32 = { "1": 2, "-3": 4 };
    b.mapStringForeignMessage = { k: { c: 5 } };
    const bytes = maps.TestMap.encode(b);
    expect(maps.TestMap.decode(bytes).mapStringForeignMessage).toEqual({ k: { c: 5, $unknown: undefined } });
    crossCheck(loaded, "protobuf_unittest.TestMap", bytes);
    const g = builder(p2.TestAllTypes);
    g.mutableOptionalgroup().a = 3;
    g.addRepeatedgroup().a = 4;
    expect(p2.TestAllTypes.decode(p2.TestAllTypes.encode(g)).repeatedgroup.map((x) => x.a)).toEqual([4]);
  });

  it("explicit presence: setting undefined clears the field; implicit fields go back to zero", () => {
    const b = builder(p2.TestAllTypes);
    b.optionalInt32 = 0;
    expect(b.$has("optionalInt32")).toBe(true);
    expect(p2.TestAllTypes.encode(b)).toEqual(new Uint8Array([0x08, 0x00]));
    b.optionalInt32 = undefined;
    expect(b.$has("optionalInt32")).toBe(false);
    b.optionalNestedMessage = { bb: 1 };
    b.optionalNestedMessage = undefined;
    expect(p2.TestAllTypes.encode(b)).toHaveLength(0);
    const c = builder(All3);
    c.optionalString = "x";
    c.optionalString = null;
    c.oneofField = { case: "oneofUint32", value: 5 };
    c.oneofField = undefined;
    expect(All3.encode(c)).toHaveLength(0);
  });

  it("setting a oneof clears only its own value slot", () => {
    const b = builder(SmallOneofs);
    b.second = { case: "c", value: 7 };
    b.first = { case: "a", value: 1 };
    b.first = { case: "b", value: true };
    expect(b.second).toEqual({ case: "c", value: 7 });
    expect(SmallOneofs.decode(SmallOneofs.encode(b))).toMatchObject({ first: { case: "b", value: true }, second: { case: "c", value: 7 } });
  });

  it("$clear() empties the builder and reuses its sub-builders, so a loop allocates no new builders", () => {
    const b = builder(All3);
    const seen = new Set<object>();
    let first: Uint8Array | undefined;
    for (let round = 0; round < 100; round++) {
      b.$clear();
      expect(All3.encode(b)).toHaveLength(0);
      b.optionalInt32 = 1;
      const n = b.mutableOptionalNestedMessage();
      n.bb = 2;
      for (let i = 0; i < 3; i++) b.addRepeatedNestedMessage().bb = i;
      seen.add(n);
      const bytes = All3.encode(b);
      first ??= bytes;
      expect(bytes).toEqual(first);
    }
    expect(seen.size).toBe(1);
    // and the arena does not grow with the rounds
    expect(b.$arena.reservedBytes).toBeLessThanOrEqual(128 * 1024);
  });

  it("a builder used after $release(), or a sub-builder after $clear(), throws a clear error", () => {
    const b = builder(All3);
    const n = b.mutableOptionalNestedMessage();
    b.$clear();
    expect(() => (n.bb = 1)).toThrow(StaleViewError);
    b.$release();
    expect(() => (b.optionalInt32 = 1)).toThrow(/builder used after \$release\(\)/);
    expect(() => b.optionalInt32).toThrow(StaleViewError);
    expect(() => All3.encode(b)).toThrow(StaleViewError);
  });

  it("bad values throw EncodeError with the field path and leave the builder usable", () => {
    const b = builder(All3);
    b.optionalInt32 = 5;
    expect(() => (b.optionalInt32 = 2 ** 32)).toThrow(EncodeError);
    expect(() => (b.optionalString = "\udfff")).toThrow(/lone surrogate.*optional_string/);
    expect(() => b.addRepeatedInt32(1.5)).toThrow(/repeated_int32/);
    expect(() => (b.repeatedInt64 = [1n, 2n ** 64n])).toThrow(/repeated_int64\[1\]/);
    // a message value: the builder's setter hands it to the sub-message's generated filler
    expect(() => (b.optionalNestedMessage = { bb: 1.5 })).toThrow(/\(optional_nested_message\.bb\)/);
    expect(() => (b.repeatedNestedMessage = [{}, { bb: "x" as never }])).toThrow(/\(repeated_nested_message\[1\]\.bb\)/);
    expect(b.optionalInt32).toBe(5);
    expect(All3.decode(All3.encode(b)).optionalInt32).toBe(5);
  });

  it("a packed field set from a typed array is read back without a copy through the view", () => {
    const b = builder(p2.TestPackedTypes);
    const values = Float64Array.from({ length: 10_000 }, (_, i) => Math.sin(i));
    b.packedDouble = values;
    expect(b.packedDouble).toEqual(values);
    const bytes = p2.TestPackedTypes.encode(b);
    expect(bytes.length).toBe(10_000 * 8 + 2 + 3);
    expect(p2.TestPackedTypes.view(bytes).packedDouble).toEqual(values);
  });
});

describe("memory of builders and arenas that are dropped", () => {
  it("small first blocks: 100,000 builders never released fit; dropped ones come back at garbage collection", () => {
    // a fresh process with gc() exposed, so that collection and finalization can be awaited
    const program = `
      import { init, Arena, builder } from "hppproto";
      import { runtime } from "./dist/ts/runtime.js";
      import { Wide } from "./test/gen/wide_js/wide_pb.js";
      await init();
      const grow = (n) => { for (let i = 0; i < n; i++) { const b = builder(Wide); b.asString = String(i); b.subs = [{ id: BigInt(i) }]; } };
      const settle = async () => { for (let i = 0; i < 5; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); } };
      grow(100_000);
      const afterMany = runtime().mem.buffer.byteLength;
      await settle();
      grow(100_000);
      const afterMore = runtime().mem.buffer.byteLength;
      for (let i = 0; i < 1000; i++) new Arena().reservedBytes; // arenas dropped without release() too
      await settle();
      console.log(JSON.stringify({ afterMany, afterMore, works: Wide.decode(Wide.encode({ i64: 5n })).i64 === 5n }));`;
    const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", program], { cwd: repoRoot, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const { afterMany, afterMore, works } = JSON.parse(r.stdout) as { afterMany: number; afterMore: number; works: boolean };
    expect(works).toBe(true);
    expect(afterMany).toBeLessThan(512 * 2 ** 20); // 64 KiB first blocks made this 6.4 GB: out of memory
    expect(afterMore).toBe(afterMany); // the first 100,000 were freed and their memory reused
  });
});
