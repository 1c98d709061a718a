// Views: zero-copy reads, lifetimes, memory growth, defaults, maps, unknown fields, batches.
import assert from "node:assert";
import { beforeAll, describe, expect, it } from "vitest";
import { Arena, DelimitedReader, init, StaleViewError, MapView, create, isFieldSet, fieldsOf, oneofsOf } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { Node, NodeView, Color } from "./gen/names/limits_pb.js";
import { TestAllTypes } from "./gen/unittest/google/protobuf/unittest_pb.js";
import { TestMap } from "./gen/unittest/google/protobuf/map_unittest_pb.js";
import { Wire } from "./support/wire.js";
import { interpretedType } from "../dist/ts/interpreted/index.js";

beforeAll(async () => {
  await init();
});

const node = (id: number, extra?: (w: Wire) => void) => {
  const w = new Wire().tag(8, 0).varint(id);
  extra?.(w);
  return w.finish();
};

describe("zero-copy reads", () => {
  it("packed doubles come back as a Float64Array over linear memory", () => {
    const values = Array.from({ length: 1000 }, (_, i) => i * 0.5 - 17);
    const w = new Wire().tag(3, 2).varint(values.length * 8);
    values.forEach((v) => w.fixed64(v));
    const bytes = node(1, (x) => x.raw(...w.finish()));
    const v = Node.view(bytes);
    const samples = v.samples;
    expect(samples).toBeInstanceOf(Float64Array);
    expect(samples.buffer).toBe(runtime().mem.buffer);
    expect(Array.from(samples)).toEqual(values);
  });

  it("a large packed run is used in place whatever its offset in the input", () => {
    const values = Float64Array.from({ length: 20_000 }, (_, i) => i * 0.25 - 1000.5);
    const run = new Uint8Array(values.buffer);
    for (let pad = 0; pad < 8; pad++) {
      // the blob's length moves the run's offset through every residue mod 8
      const head = new Wire().tag(8, 0).varint(1).string(7, new Uint8Array(pad).fill(9)).tag(3, 2).varint(run.length).finish();
      const input = new Uint8Array(head.length + run.length);
      input.set(head);
      input.set(run, head.length);
      for (const arena of [undefined, new Arena()]) {
        const v = Node.view(input, arena);
        expect(v.samples).toEqual(values);
        // blob and samples point into the same copy of the input: the run follows the blob's bytes,
        // its tag and its 3-byte length, so it was not moved (an empty blob is a shared empty array)
        if (pad > 0) expect(v.samples.byteOffset - v.blob.byteOffset).toBe(pad + 4);
        else expect(v.blob.buffer).not.toBe(runtime().mem.buffer);
        arena?.release();
      }
      expect(Node.decode(input).samples).toEqual(Array.from(values));
    }
  });

  it("packed int64 is a BigInt64Array, bytes a subarray of linear memory", () => {
    const big = [0n, -1n, 9223372036854775807n, -9223372036854775808n];
    const packed = new Wire();
    big.forEach((b) => packed.varint(b));
    const bytes = node(1, (w) => w.string(6, packed.finish()).string(7, new Uint8Array([1, 2, 3])));
    const v = Node.view(bytes);
    expect(v.big).toBeInstanceOf(BigInt64Array);
    expect(Array.from(v.big)).toEqual(big);
    expect(v.blob.buffer).toBe(runtime().mem.buffer);
    expect(Array.from(v.blob)).toEqual([1, 2, 3]);
  });
});

describe("repeated message fields", () => {
  const withChildren = (ids: number[]) =>
    node(1, (w) => ids.forEach((id) => w.string(5, node(id))));

  it("get() gives a view per element, of the element's type; iteration and toArray() agree", () => {
    const v = Node.view(withChildren([10, 20, 30]));
    const children = v.children;
    expect(children.length).toBe(3);
    expect(children.get(1)).toBeInstanceOf(NodeView);
    expect([children.get(0).id, children.get(1).id, children.get(2).id]).toEqual([10, 20, 30]);
    expect([...children].map((c) => c.id)).toEqual([10, 20, 30]);
    expect(children.toArray().map((c) => c.id)).toEqual([10, 20, 30]);
  });

  it("get() outside 0..length-1, or not an integer index, is a RangeError", () => {
    const children = Node.view(withChildren([10, 20])).children;
    for (const bad of [-1, 2, 1000, NaN, Infinity]) {
      expect(() => children.get(bad)).toThrow(RangeError);
    }
    expect(() => Node.view(node(1)).children.get(0)).toThrow(RangeError); // an absent field is empty
  });

  it("get() of a fraction is a RangeError on every kind of list, generated and interpreted: it read a slot across two elements, a string or Uint8Array of whatever memory that pointed to", () => {
    const bytes = TestAllTypes.encode({ repeatedString: ["a", "bb", "ccc"], repeatedBytes: [new Uint8Array([1]), new Uint8Array([2, 3])], repeatedNestedMessage: [{ bb: 1 }, { bb: 2 }] });
    const interpreted = interpretedType(TestAllTypes.schemaDef, TestAllTypes.index) as unknown as typeof TestAllTypes;
    for (const type of [TestAllTypes, interpreted]) {
      const v = type.view(bytes);
      for (const list of [v.repeatedString, v.repeatedBytes, v.repeatedNestedMessage] as { get(i: number): unknown; length: number }[]) {
        for (const bad of [0.5, 1.5, -0.5, 2 ** 32, -(2 ** 32) + 1]) expect(() => list.get(bad), `${bad}`).toThrow(RangeError);
        expect(list.length).toBeGreaterThan(1);
      }
      expect([v.repeatedString.get(-0), v.repeatedBytes.get(1), v.repeatedNestedMessage.get(1).bb]).toEqual(["a", new Uint8Array([2, 3]), 2]);
    }
  });

  it("at() reads as Array's at(): from the end when negative, undefined out of range, a fraction truncated", () => {
    const v = TestAllTypes.view(TestAllTypes.encode({ repeatedString: ["a", "bb", "ccc"], repeatedNestedMessage: [{ bb: 1 }, { bb: 2 }] }));
    const strings = v.repeatedString, array = ["a", "bb", "ccc"];
    for (const i of [0, 2, -1, -3, 3, -4, 1.7, -1.2, NaN, Infinity]) expect(strings.at(i), `${i}`).toBe(array.at(i));
    expect([v.repeatedNestedMessage.at(-1)?.bb, v.repeatedNestedMessage.at(2)]).toEqual([2, undefined]);
    TestAllTypes.view(new Uint8Array(0));
    expect(() => strings.at(0)).toThrow(StaleViewError);
  });

  it("get() on a list whose view is stale throws StaleViewError, even for an index in range", () => {
    const children = Node.view(withChildren([10, 20])).children;
    const first = children.get(0);
    Node.view(node(2));
    expect(() => children.get(0)).toThrow(StaleViewError);
    expect(() => children.get(5)).toThrow(StaleViewError);
    expect(() => first.id).toThrow(StaleViewError);
  });
});

describe("strings", () => {
  it("keep a leading U+FEFF where browsers decode them, with TextDecoder (which drops it by default)", () => {
    const mem = runtime().mem as unknown as { slicer: unknown };
    const saved = mem.slicer; // Node's Buffer#utf8Slice, which browsers do not have
    mem.slicer = undefined;
    try {
      for (const s of ["\uFEFF", "\uFEFF\u00e9", `\uFEFF${"x".repeat(100)}`, `\uFEFF${"\u00e9".repeat(100)}`]) {
        const bytes = TestAllTypes.encode({ optionalString: s, repeatedString: [s, "a"] });
        expect(TestAllTypes.decode(bytes)).toMatchObject({ optionalString: s, repeatedString: [s, "a"] });
        const view = TestAllTypes.view(bytes);
        expect([view.optionalString, view.repeatedString.get(0)]).toEqual([s, s]);
      }
    } finally {
      mem.slicer = saved;
    }
  });
});

describe("lifetimes", () => {
  it("every getter of a stale view throws StaleViewError: scalars, strings, bytes, sub-messages, lists, maps, oneofs, generated and interpreted", () => {
    const interpreted = interpretedType(TestAllTypes.schemaDef, TestAllTypes.index) as unknown as typeof TestAllTypes;
    for (const T of [TestAllTypes, TestMap, interpreted]) {
      const arena = new Arena();
      const view = T.view(T.encode(create(T)), arena) as unknown as Record<string, unknown>;
      const getters = [...new Set(fieldsOf(T).map((f) => (f.oneof === undefined ? f.property : oneofsOf(T).find((o) => o.name === f.oneof)!.property)))];
      for (const g of getters) expect(() => view[g], g).not.toThrow();
      arena.reset();
      const unchecked = getters.filter((g) => {
        try {
          return view[g] !== null; // (read: not stale)
        } catch (e) {
          return !(e instanceof StaleViewError);
        }
      });
      expect(unchecked).toEqual([]);
      arena.release();
    }
  });

  it("a view on the default arena is stale after the next view()", () => {
    const a = Node.view(node(1));
    expect(a.id).toBe(1);
    const b = Node.view(node(2));
    expect(() => a.id).toThrow(StaleViewError);
    expect(a.$valid).toBe(false);
    expect(b.id).toBe(2);
  });

  it("a view on the default arena keeps its message through decode(), decodeDelimited() and stream pushes", () => {
    const named = (id: number, name: string) => node(id, (w) => w.string(4, name));
    const v = Node.view(named(1, "first message"));
    Node.decode(named(2, "second message, longer than the first"));
    Node.decodeDelimited(Node.encodeDelimited([{ id: 3, name: "third" }]));
    new DelimitedReader(Node).push(Node.encodeDelimited([{ id: 4, name: "fourth" }]));
    // a staging buffer that had to grow, and so moved
    Node.decode(Node.encode({ id: 5, name: "x".repeat(100_000) }));
    expect([v.id, v.name]).toEqual([1, "first message"]);
    // views from one reader, and another reader's push of plain objects
    const a = new DelimitedReader(Node);
    const b = new DelimitedReader(Node);
    const [fromA] = a.pushViews(Node.encodeDelimited([{ id: 6, name: "from reader a" }]));
    expect(b.push(Node.encodeDelimited([{ id: 7, name: "from reader b" }]))[0]!.name).toBe("from reader b");
    expect(fromA!.name).toBe("from reader a");
  });

  it("typed arrays from a view are aliases valid while the view is; slice() and $toObject() keep the data", () => {
    const samples = (values: number[]) => {
      const w = new Wire().tag(3, 2).varint(values.length * 8);
      values.forEach((v) => w.fixed64(v));
      return node(1, (x) => x.raw(...w.finish()));
    };
    const arena = new Arena();
    const v = Node.view(samples([1.5, 2.5]), arena);
    const alias = v.samples;
    const kept = alias.slice();
    const plain = v.$toObject().samples;
    arena.reset();
    Node.view(samples([7, 8]), arena); // the same memory, the next message
    expect(() => v.samples).toThrow(StaleViewError); // the view knows
    expect(Array.from(alias)).toEqual([7, 8]); // the alias cannot: the documented rule
    expect(Array.from(kept)).toEqual([1.5, 2.5]);
    expect(plain).toEqual([1.5, 2.5]);
    arena.release();
  });

  it("views on an own arena survive other decodes until reset or release", () => {
    const arena = new Arena();
    const a = Node.view(node(1, (w) => w.string(4, "kept")), arena);
    for (let i = 0; i < 100; i++) Node.view(node(i));
    Node.decode(node(5));
    expect(a.name).toBe("kept");
    arena.reset();
    expect(() => a.name).toThrow(/reset/);
    const b = Node.view(node(3), arena);
    expect(b.id).toBe(3);
    arena.release();
    expect(() => b.id).toThrow(/released/);
    expect(() => Node.view(node(3), arena)).toThrow(/release/);
  });

  it("memory growth: views keep reading correctly, typed arrays from before are detached, not stale", () => {
    const arena = new Arena();
    const v = Node.view(node(9, (w) => w.string(4, "before growth").tag(3, 2).varint(16).fixed64(1.5).fixed64(2.5)), arena);
    const samplesBefore = v.samples;
    const before = runtime().mem.buffer.byteLength;
    // 48 MiB of doubles forces the memory to grow
    const n = 6 * 1024 * 1024;
    const big = new Uint8Array(n * 8 + 16);
    const header = new Wire().tag(8, 0).varint(1).tag(3, 2).varint(n * 8).finish();
    big.set(header);
    const huge = Node.view(big.subarray(0, header.length + n * 8));
    expect(runtime().mem.buffer.byteLength).toBeGreaterThan(before);
    expect(huge.samples.length).toBe(n);
    expect(v.name).toBe("before growth");
    expect(Array.from(v.samples)).toEqual([1.5, 2.5]);
    expect(samplesBefore.length).toBe(0); // detached: reads nothing rather than someone else's bytes
    arena.release();
  });
});

describe("presence and defaults", () => {
  it("views and plain objects give declared defaults for absent fields (plain objects inherit them, unset)", () => {
    const v = Node.view(new Wire().tag(8, 0).varint(7).finish());
    expect(v.$has("color")).toBe(false);
    expect(v.color).toBe(Color.GREEN);
    expect(v.ratio).toBe(1.5);
    expect(v.label).toBe("none");
    expect(v.child).toBeUndefined();
    const p = Node.decode(new Wire().tag(8, 0).varint(7).finish());
    expect([p.color, p.ratio, p.label]).toEqual([Color.GREEN, 1.5, "none"]);
    expect([isFieldSet(Node, p, "color"), Object.hasOwn(p, "color"), isFieldSet(Node, p, "label")]).toEqual([false, false, false]);
    const set = Node.view(node(7, (w) => w.tag(9, 0).varint(3).string(11, "")));
    expect(set.color).toBe(Color.BLUE);
    expect(set.$has("label")).toBe(true);
    expect(set.label).toBe("");
  });

  it("a closed enum value outside the enum is kept as an unknown field", () => {
    const bytes = node(1, (w) => w.tag(9, 0).varint(99));
    const p = Node.decode(bytes);
    expect([p.color, isFieldSet(Node, p, "color")]).toEqual([Color.GREEN, false]); // unset: its default
    expect(Array.from(p.$unknown!)).toEqual([9 * 8, 99]);
  });

  it("unknown fields survive as their wire bytes", () => {
    const unknown = new Wire().tag(1000, 0).varint(5).string(1001, "zz").tag(1002, 1).fixed64(1).finish();
    const bytes = node(1, (w) => w.raw(...unknown));
    expect(Node.decode(bytes).$unknown).toEqual(unknown);
    expect(Node.view(bytes).$toObject().$unknown).toEqual(unknown);
  });

  it("only a message with unknown fields carries $unknown: a round trip is deepStrictEqual to its input", () => {
    const x = { optionalInt32: 1, optionalString: "a", optionalNestedMessage: { bb: 2 }, repeatedNestedMessage: [{ bb: 3 }] };
    const back = TestAllTypes.decode(TestAllTypes.encode(x));
    for (const o of [back, back.optionalNestedMessage!, back.repeatedNestedMessage[0]!, TestAllTypes.view(TestAllTypes.encode(x)).$toObject()]) {
      expect(Object.keys(o)).not.toContain("$unknown");
    }
    const full = TestAllTypes.decode(TestAllTypes.encode(back));
    assert.deepStrictEqual(full, back);
    expect(Object.keys(Node.decode(node(1, (w) => w.tag(1000, 0).varint(5))))).toContain("$unknown");
  });
});

describe("maps", () => {
  it("MapView indexes entries, last value wins", () => {
    const entry = (k: number, v: number) => new Wire().tag(1, 0).varint(k).tag(2, 0).varint(v);
    const bytes = new Wire().message(1, entry(1, 10)).message(1, entry(2, 20)).message(1, entry(1, 30)).finish();
    const v = TestMap.view(bytes);
    const m = v.mapInt32Int32;
    expect(m).toBeInstanceOf(MapView);
    expect(m.size).toBe(2);
    expect(m.get(1)).toBe(30);
    expect(m.has(3)).toBe(false);
    expect([...m.keys()]).toEqual([1, 2]);
    expect(TestMap.decode(bytes).mapInt32Int32).toEqual({ 1: 30, 2: 20 });
  });

  it("a __proto__ map key is an own property, not a prototype", () => {
    const e2 = new Wire().string(1, "__proto__").string(2, "v");
    const bytes = new Wire().message(14, e2).finish();
    const m = TestMap.decode(bytes).mapStringString;
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(m, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(m, "__proto__")!.value).toBe("v");
  });
});

describe("delimited batches", () => {
  const batch = (ids: number[]) => {
    const w = new Wire();
    for (const id of ids) {
      const m = node(id);
      w.varint(m.length).raw(...m);
    }
    return w.finish();
  };

  it("decodes many messages in one call, as views or plain objects", () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    const views = Node.viewDelimited(batch(ids));
    expect(views.map((v) => v.id)).toEqual(ids);
    expect(Node.decodeDelimited(batch(ids)).map((p) => p.id)).toEqual(ids);
    const arena = new Arena();
    const kept = Node.viewDelimited(batch([4, 5]), arena);
    Node.view(node(1));
    expect(kept.map((v: NodeView) => v.id)).toEqual([4, 5]);
    arena.release();
  });

  it("memory growth in the middle of a batch: every view and plain object reads its own values", () => {
    // each message widens 250,000 one-byte varints to int64s (2 MB): the batch outgrows the memory
    const perMessage = 250_000;
    const parts: Uint8Array[] = [];
    for (let id = 1; id <= 24; id++) {
      const head = new Wire().tag(8, 0).varint(id).tag(6, 2).varint(perMessage).finish();
      parts.push(new Wire().varint(head.length + perMessage).finish(), head, new Uint8Array(perMessage).fill(id));
    }
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
    const arena = new Arena();
    const memoryBefore = runtime().mem.buffer.byteLength;
    const views = Node.viewDelimited(bytes, arena);
    expect(runtime().mem.buffer.byteLength).toBeGreaterThan(memoryBefore);
    views.forEach((v: NodeView, i: number) => {
      expect(v.id).toBe(i + 1);
      expect(v.big.length).toBe(perMessage);
      expect(v.big[0]).toBe(BigInt(i + 1));
      expect(v.big[perMessage - 1]).toBe(BigInt(i + 1));
    });
    const plain = Node.decodeDelimited(bytes);
    expect(plain.map((p) => [p.id, p.big!.length, p.big![perMessage - 1]])).toEqual(views.map((v) => [v.id, perMessage, v.big[0]]));
    arena.release();
  });

  it("names the failing message of a batch", () => {
    const good = batch([1, 2]);
    const bad = new Uint8Array([...good, 2, 0x10, 0x05]); // third message: value = 5 but no id (required); reported where that message ends
    expect(() => Node.viewDelimited(bad)).toThrow(/MISSING_REQUIRED/);
    expect(() => Node.decodeDelimited(bad)).toThrow(expect.objectContaining({ path: "limits.Node[#2].id", offset: 9 }));
  });

  it("forEachDelimited / forEachViewDelimited pass each message in order with its index and return the count", () => {
    const ids = [3, 1, 4, 1, 5, 9, 2, 6];
    const plain: [number, number][] = [];
    expect(Node.forEachDelimited(batch(ids), (m, i) => plain.push([m.id, i]))).toBe(ids.length);
    expect(plain).toEqual(ids.map((id, i) => [id, i]));
    const viewed: number[] = [];
    expect(Node.forEachViewDelimited(batch(ids), (v, i) => viewed.push(v.id * 100 + i))).toBe(ids.length);
    expect(viewed).toEqual(ids.map((id, i) => id * 100 + i));
    expect(Node.forEachDelimited(new Uint8Array(0), () => { throw new Error("no message"); })).toBe(0);
  });

  it("a callback may decode anything, other batches included, without disturbing its own batch", () => {
    const named = (id: number) => node(id, (w) => w.string(4, `message number ${id}, long enough to be copied`));
    const outer = new Wire();
    for (let id = 1; id <= 5; id++) {
      const m = named(id);
      outer.varint(m.length).raw(...m);
    }
    const seen: string[] = [];
    Node.forEachViewDelimited(outer.finish(), (v) => {
      // every default arena and staging buffer, and a nested batch of each kind, before reading v
      Node.view(named(100));
      Node.decode(named(200));
      Node.viewDelimited(batch([7, 8]));
      Node.decodeDelimited(batch([9]));
      Node.forEachDelimited(batch([10, 11]), (inner) => Node.forEachViewDelimited(batch([12]), (x) => expect(x.id).toBe(12)) + inner.id);
      seen.push(v.name);
    });
    expect(seen).toEqual([1, 2, 3, 4, 5].map((id) => `message number ${id}, long enough to be copied`));
  });

  it("views of a batch stay valid after it until the next batch without an arena; with one, until it is reset", () => {
    const kept: NodeView[] = [];
    Node.forEachViewDelimited(batch([1, 2]), (v) => kept.push(v));
    Node.view(node(3));
    Node.decode(node(4));
    expect(kept.map((v) => v.id)).toEqual([1, 2]);
    Node.forEachViewDelimited(batch([5]), () => {});
    expect(() => kept[0]!.id).toThrow(StaleViewError);

    const arena = new Arena();
    const mine: NodeView[] = [];
    Node.forEachViewDelimited(batch([6, 7]), (v) => mine.push(v), arena);
    Node.forEachViewDelimited(batch([8]), () => {});
    expect(mine.map((v) => v.id)).toEqual([6, 7]);
    arena.reset();
    expect(() => mine[0]!.id).toThrow(StaleViewError);
    arena.release();
  });

  it("a bad message fails the whole batch before any callback, with its position in the path", () => {
    const bad = new Uint8Array([...batch([1, 2]), 2, 0x10, 0x05]);
    let calls = 0;
    expect(() => Node.forEachDelimited(bad, () => calls++)).toThrow(expect.objectContaining({ path: "limits.Node[#2].id", offset: 9 }));
    expect(() => Node.forEachViewDelimited(bad, () => calls++)).toThrow(/MISSING_REQUIRED/);
    expect(calls).toBe(0);
    expect(Node.forEachDelimited(batch([1]), () => calls++)).toBe(1); // and the runtime goes on
  });

  it("batches nested more than 32 deep are DEPTH_LIMIT, and the levels unwind", () => {
    const one = batch([1]);
    let depth = 0;
    const dive = (): void => {
      depth++;
      Node.forEachDelimited(one, dive);
    };
    expect(dive).toThrow(expect.objectContaining({ code: "DEPTH_LIMIT" }));
    expect(depth).toBe(33);
    expect(Node.forEachDelimited(batch([1, 2]), () => {})).toBe(2);
  });
});

describe("proto3 strings", () => {
  it("decode multi-byte text on both paths", () => {
    const text = "héllo wörld — 你好 \u{1F600}".repeat(3);
    const bytes = new Wire().string(14, text).finish();
    expect(TestAllTypes.view(bytes).optionalString).toBe(text);
    expect(TestAllTypes.decode(bytes).optionalString).toBe(text);
  });
});

describe("bytes of plain objects", () => {
  it("are copies: never views of linear memory, empty ones included", () => {
    const withBlob = Node.decode(node(1, (w) => w.string(7, new Uint8Array([1, 2, 3]))));
    const unset = Node.decode(node(2));
    const setEmpty = Node.decode(node(3, (w) => w.string(7, new Uint8Array(0))));
    const memory = runtime().mem.buffer;
    expect(Array.from(withBlob.blob!)).toEqual([1, 2, 3]);
    expect(withBlob.blob!.buffer).not.toBe(memory);
    for (const empty of [setEmpty.blob!, ...TestAllTypes.decode(new Uint8Array(0)).repeatedBytes, TestAllTypes.decode(new Uint8Array([0x7a, 0])).optionalBytes!]) {
      expect(empty.length).toBe(0);
      expect(empty.buffer).not.toBe(memory);
      expect(empty.buffer.byteLength).toBe(0);
    }
    expect(unset.blob === undefined || unset.blob.length === 0).toBe(true);
  });
});
