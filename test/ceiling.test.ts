// The WASM memory ceiling (4 GiB of linear memory on wasm32). In a file of its own: the memory the
// test grows stays with this worker, not with the other suites.
import { beforeAll, expect, it } from "vitest";
import { Arena, DecodeError, fromText, init, getLimits, setLimits, fromJson, fromJsonString, encodeFromJsonString } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { interpretedType } from "../dist/ts/interpreted/index.js";
import { Node, Wide200List } from "./gen/names/limits_pb.js";
import { Wire } from "./support/wire.js";

beforeAll(async () => {
  await init();
});

it("a payload whose decoded form cannot fit in linear memory fails cleanly, and the runtime keeps working", () => {
  // 500 million one-byte varints of a packed int64: 500 MB on the wire (copied into linear memory),
  // 4.0 GB as int64s; together more than the 4 GiB the memory can grow to
  const count = 500_000_000;
  const head = new Wire().tag(8, 0).varint(1).tag(6, 2).varint(count).finish();
  const payload = new Uint8Array(head.length + count).fill(1, head.length);
  payload.set(head);
  let error: unknown;
  try {
    Node.view(payload);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DecodeError);
  expect(error).toMatchObject({ code: "OUT_OF_MEMORY", offset: head.length, path: "limits.Node.big[0]" });

  // the failed decode gave its memory back: the same arena holds a 100 MB copy and decodes again
  const arena = new Arena();
  const okHead = new Wire().tag(8, 0).varint(2).tag(6, 2).varint(100_000_000).finish();
  const ok = new Uint8Array(okHead.length + 100_000_000).fill(1, okHead.length);
  ok.set(okHead);
  const view = Node.view(ok, arena);
  expect(view.id).toBe(2);
  expect(view.big.length).toBe(100_000_000);
  expect(view.big[99_999_999]).toBe(1n);
  arena.release();
  expect(runtime().mem.buffer.byteLength).toBeLessThanOrEqual(2 ** 32);
  expect(Node.decode(new Uint8Array([0x40, 3])).id).toBe(3);
});

it("inputs and values of 2 GiB or more are refused before anything is copied; other arenas' views keep their data", () => {
  const keep = new Arena();
  const kept = Node.view(new Wire().tag(8, 0).varint(5).string(4, "hello").finish(), keep);
  // untouched pages: the OS commits none of these 2 GiB
  for (const size of [2 ** 31, 2 ** 31 + 7, 2 ** 32 - 8]) {
    const huge = new Uint8Array(size);
    const arena = new Arena();
    for (const decode of [() => Node.view(huge, arena), () => Node.view(huge), () => Node.decode(huge), () => Node.viewDelimited(huge, arena)]) {
      expect(decode).toThrow(expect.objectContaining({ code: "MESSAGE_TOO_LARGE" }));
    }
    expect(() => Node.encode({ id: 1, blob: huge })).toThrow(expect.objectContaining({ code: "MESSAGE_TOO_LARGE" }));
    arena.release();
  }
  expect([kept.id, kept.name]).toEqual([5, "hello"]);
  keep.release();
  expect(Node.decode(Node.encode({ id: 6, name: "after" }))).toMatchObject({ id: 6, name: "after" });
});

it("amplification: 1 MB of empty sub-messages is MEMORY_BUDGET by default (not a 1 GB arena), and maxAmplification raises the budget", async () => {
  const { TestParsingMerge_RepeatedFieldsGenerator: Gen } = await import("./gen/unittest/google/protobuf/unittest_pb.js");
  const n = 500_000; // field1 (repeated TestAllTypes), each empty: 0a 00
  const bytes = new Uint8Array(n * 2);
  for (let i = 0; i < n; i++) bytes.set([0x0a, 0x00], i * 2);
  const arena = new Arena();
  for (const decode of [() => Gen.view(bytes, arena), () => Gen.decode(bytes), () => Gen.view(bytes)]) {
    expect(decode).toThrow(expect.objectContaining({ code: "MEMORY_BUDGET", path: expect.stringMatching(/^protobuf_unittest\.TestParsingMerge\.RepeatedFieldsGenerator\.field1\[\d+\]$/) }));
  }
  expect(arena.reservedBytes).toBe(0); // the failed decode gave everything back
  try {
    setLimits({ maxAmplification: 1000 });
    expect(getLimits().maxAmplification).toBe(1000);
    const view = Gen.view(bytes, arena);
    expect(view.field1.length).toBe(n);
    console.log(`amplification of 1 MB of empty TestAllTypes: ${(arena.reservedBytes / bytes.length).toFixed(0)}x with the budget raised`);
    expect(arena.reservedBytes).toBeLessThanOrEqual(1000 * bytes.length + 2 ** 20);
  } finally {
    setLimits({ maxAmplification: 256 });
    arena.release();
  }
  expect(Gen.decode(new Uint8Array([0x0a, 0x00])).field1).toHaveLength(1);
});

it("amplification of plain objects: empty messages of many fields, each 2 bytes of input and kilobytes of JS objects, are MEMORY_BUDGET under decode() (a 1.75 MB input took a 1 GB heap down), views and other paths unchanged", async () => {
  const { TestAllTypesProto3: T, decodeTestAllTypesProto3 } = await import("./gen/conformance/google/protobuf/test_messages_proto3_pb.js");
  const n = 100_000; // repeated_nested_message { a: 0, corecursive: {} }: 7 bytes, a record of ~1.3 KB, plain objects of ~6 KB
  const one = [0x82, 0x03, 0x04, 0x08, 0x00, 0x12, 0x00];
  const bytes = new Uint8Array(n * 7);
  for (let i = 0; i < n; i++) bytes.set(one, i * 7);
  const budgetError = expect.objectContaining({ code: "MEMORY_BUDGET" });
  expect(() => T.decode(bytes)).toThrow(budgetError);
  // its generated decoder of plain objects (no records) charges the same objects
  expect(() => decodeTestAllTypesProto3(bytes)).toThrow(budgetError);
  const delimited = new Uint8Array(bytes.length + 4);
  delimited.set([0xe0, 0xdc, 0x2a], 0); // one message of 700,000 bytes
  delimited.set(bytes, 3);
  expect(() => T.decodeDelimited(delimited.subarray(0, bytes.length + 3))).toThrow(budgetError);
  expect(() => T.forEachDelimited(delimited.subarray(0, bytes.length + 3), () => {})).toThrow(budgetError);
  expect(T.view(bytes).repeatedNestedMessage.length).toBe(n); // a view holds records, not objects: its own budget
  try {
    setLimits({ maxAmplification: 1000 });
    expect(T.decode(bytes.subarray(0, 7 * 2000)).repeatedNestedMessage).toHaveLength(2000);
    expect(decodeTestAllTypesProto3(bytes.subarray(0, 7 * 2000)).repeatedNestedMessage).toHaveLength(2000);
  } finally {
    setLimits({ maxAmplification: 256 });
  }
  // ordinary messages are far inside the budget, and a failed read-out leaves the next decode its own
  expect(T.decode(T.encode({ repeatedNestedMessage: Array.from({ length: 100 }, (_, i) => ({ a: i })) })).repeatedNestedMessage).toHaveLength(100);
  expect(T.decode(bytes.subarray(0, 7 * 10)).repeatedNestedMessage).toHaveLength(10);
  // views read out are not charged: their budget is unbounded between decodes, and stays so
  const view = T.view(T.encode({ recursiveMessage: { optionalInt32: 1 } }));
  for (let i = 0; i < 10; i++) view.$toObject();
  expect(runtime().plainBudget).toBe(Infinity);
});

it("amplification of JSON and text: 100,000 empty 200-field messages are MEMORY_BUDGET on every reader, as their binary is; the runtime keeps working", () => {
  const Gen = Wide200List;
  const n = 100_000; // each a 1,612-byte record
  const json = `{"items":[${"{},".repeat(n - 1)}{}]}`; // 300 KB
  const text = `items: [${"{},".repeat(n - 1)}{}]`;
  const budgetError = expect.objectContaining({ code: "MEMORY_BUDGET" });
  const binary = new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) binary[2 * i] = 0x0a; // items, empty: 0a 00
  expect(() => Gen.decode(binary)).toThrow(budgetError);
  const before = runtime().mem.buffer.byteLength;
  const readers = {
    "fromJsonString (the codec's reader)": () => fromJsonString(Gen, json),
    "encodeFromJsonString (the codec's reader)": () => encodeFromJsonString(Gen, json),
    // an unknown key, which only the JS reader skips: the JS reader reads the rest
    "fromJsonString (the JS reader)": () => fromJsonString(Gen, `{"unknown":0,${json.slice(1)}`, { ignoreUnknownFields: true }),
    "encodeFromJsonString (the JS reader)": () => encodeFromJsonString(Gen, `{"unknown":0,${json.slice(1)}`, { ignoreUnknownFields: true }),
    "fromJson (a JSON value)": () => fromJson(Gen, JSON.parse(json)),
    "fromJson of a runtime schema's type": () => fromJson(interpretedType(Gen.schemaDef, Gen.index), JSON.parse(json)),
    "fromText": () => fromText(Gen, text),
  };
  for (const [name, read] of Object.entries(readers)) expect(read, name).toThrow(budgetError);
  // where: the codec's reader gives the offset in the text, the JS readers the field, the text reader line:column
  expect(() => fromJsonString(Gen, json)).toThrow(/refused at offset \d+ of the text \(limits\.Wide200List\)/);
  expect(() => fromJson(Gen, JSON.parse(json))).toThrow(/\(limits\.Wide200List\.items\[\d+\]\)/);
  expect(() => fromText(Gen, text)).toThrow(/^1:\d+: .*\(limits\.Wide200List\.items\[\d+\]\) \[MEMORY_BUDGET\]$/);
  // linear memory did not grow to hold them (400,000 grew it to 916 MB), and reads go on
  expect(runtime().mem.buffer.byteLength - before).toBeLessThan(100 * 2 ** 20);
  const few = `{"items":[{},{}]}`;
  expect(fromJsonString(Gen, few).items).toHaveLength(2);
  expect(fromJson(Gen, JSON.parse(few)).items).toHaveLength(2);
  expect(fromText(Gen, "items {} items {}").items).toHaveLength(2);
  // a raised budget lets them through, as for binary input
  try {
    setLimits({ maxAmplification: 2000 });
    expect(fromJsonString(Gen, `{"items":[${"{},".repeat(9_999)}{}]}`).items).toHaveLength(10_000);
  } finally {
    setLimits({ maxAmplification: 256 });
  }
});
