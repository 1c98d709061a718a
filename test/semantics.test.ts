// Message utilities (ts/semantics.ts): create, clone, merge, equals, isSet and clear on every
// message type, cross-checked with @bufbuild/protobuf's create/clone/merge/equals/isFieldSet on
// random messages of the unittest and conformance schemas (its descriptors built by buf from the
// same files), and merge with protobuf's own definition: decoding one message's bytes after the other's.
import { deepStrictEqual, notDeepStrictEqual } from "node:assert";
import { beforeAll, describe, expect, it } from "vitest";
import * as es from "@bufbuild/protobuf";
import { fieldMaskApply, fromText, init, toText, toJsonString, fromJson, fromJsonString, create, clone, merge, equals, isMessage, isFieldSet, clearField, builder } from "hppproto";
import { encodeWithProtobufjs, loadSet, randomObject, requiresItself, rng } from "./support/protos.js";
import { registryOf } from "./support/buf.js";
import { schemaFromSources } from "../dist/codegen/dynamic.js";
import * as conf3 from "./gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import * as conf2 from "./gen/conformance/google/protobuf/test_messages_proto2_pb.js";

beforeAll(async () => {
  await init();
});

/** Whether a message, or one it holds, has extension fields (fields @bufbuild's descriptor of it lacks). */
function holdsExtensions(def: any, index: number, registry: es.FileRegistry, seen: Set<number>): boolean {
  if (seen.has(index)) return false;
  seen.add(index);
  const info = def.messages[index];
  const desc = info.mapEntry ? undefined : registry.getMessage(info.name);
  for (const f of info.fields) {
    if (desc !== undefined && !desc.fields.some((x) => x.number === f.number)) return true;
    if (f.ref >= 0 && (f.type === 11 || f.type === 10) && holdsExtensions(def, f.ref, registry, seen)) return true;
  }
  return false;
}

/**
 * A field's value in a plain object, or @bufbuild message (by its localName), comparable across the
 * two: 64-bit integers as decimal text (either may hold a string), floats as float32.
 */
function readDefault(f: { type: number; prop: string }, o: object, key = f.prop): unknown {
  const v = (o as Record<string, unknown>)[key];
  if (v instanceof Uint8Array) return Uint8Array.from(v); // @bufbuild's may be a Buffer
  if (typeof v === "bigint" || ([3, 4, 6, 16, 18].includes(f.type) && v !== undefined)) return String(v);
  return f.type === 2 && typeof v === "number" ? Math.fround(v) : v; // @bufbuild keeps a float default unrounded (9e9), a record holds its float32
}

/** unittest.proto's escaped_bytes default as protoc unescapes it (@bufbuild's unescaping drops \' and \", see reflect.test.ts). */
const escapedBytes = new Uint8Array([0, 1, 7, 8, 12, 10, 13, 9, 11, 92, 39, 34, 254]);

/** readDefault of a @bufbuild message, its one mistaken default put right. */
function esDefault(f: { type: number; prop: string; name: string }, m: object, localName: string): unknown {
  return f.name === "escaped_bytes" && !Object.hasOwn(m, localName) ? escapedBytes : readDefault(f, m, localName);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

describe.each(["unittest", "conformance"] as const)("every message of the %s schemas, against @bufbuild/protobuf", (set) => {
  const loaded = loadSet(set);
  it("equals, merge, clone, isSet and create on random messages agree with @bufbuild's", () => {
    const registry = registryOf(set);
    let compared = 0, unequal = 0, defaulted = 0;
    for (const typeName of [...loaded.types.keys()].sort()) {
      const model = loaded.models.get(typeName)!;
      if (requiresItself(model) || model.messageSet) continue;
      const desc = registry.getMessage(typeName);
      if (desc === undefined) throw new Error(`buf's descriptors have no ${typeName}`);
      const T = loaded.types.get(typeName)!;
      const r = rng(typeName.length * 4099 + 17);
      const samples = Array.from({ length: 6 }, () => encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r)));
      // extensions are fields of the extended message here; @bufbuild's equals() leaves them out
      const def = (T as any).schemaDef;
      const fields = def.messages[(T as any).index].fields as { number: number; prop: string; name: string; type: number; defaultValue?: unknown }[];
      const extended = holdsExtensions(def, (T as any).index, registry, new Set());
      for (let i = 0; i < samples.length; i++) {
        const bytesA = samples[i]!, bytesB = samples[(i + 1) % samples.length]!;
        const a = T.decode(bytesA), b = T.decode(bytesB);
        const esA = es.fromBinary(desc, bytesA), esB = es.fromBinary(desc, bytesB);
        if (!extended) {
          compared++;
          const same = es.equals(desc, esA, esB);
          if (!same) unequal++;
          expect(equals(T, a, b), typeName).toBe(same);
          expect(equals(T, a, clone(T, a)), typeName).toBe(es.equals(desc, esA, es.clone(desc, esA)));
          expect(equals(T, T.view(bytesA), a), typeName).toBe(es.equals(desc, esA, es.fromBinary(desc, bytesA)));
        }
        // merge: protobuf's definition (the bytes one after the other), and @bufbuild's
        // mergeFromBinary, both results passed through @bufbuild's reading and writing (which writes
        // an empty google.protobuf.Value as a null one). (@bufbuild's merge() is not protobuf's for
        // Struct and Value: it keeps a target's numberValue and replaces a Struct's fields whole.)
        const merged = merge(T, clone(T, a), b);
        expect(merged, typeName).toEqual(T.decode(concat(bytesA, bytesB)));
        // is(): what decode, views, clone and merge give is of the type
        expect([isMessage(T, a), isMessage(T, T.view(bytesA)), isMessage(T, clone(T, a)), isMessage(T, merged)], typeName).toEqual([true, true, true, true]);
        const esMerged = es.mergeFromBinary(desc, es.clone(desc, esA), bytesB);
        const throughEs = (bytes: Uint8Array) => T.decode(es.toBinary(desc, es.fromBinary(desc, bytes)));
        expect(throughEs(T.encode(merged)), typeName).toEqual(T.decode(es.toBinary(desc, esMerged)));
        expect(merge(T, clone(T, a), T.view(bytesB)), typeName).toEqual(merged);
        // isSet, field by field (oneof members included); a field with a declared default reads it as @bufbuild's does
        for (const f of fields) {
          const esField = desc.fields.find((x) => x.number === f.number);
          if (esField === undefined) continue; // an extension, a field of the message here: @bufbuild keeps them apart
          expect(isFieldSet(T, a, f.prop), `${typeName}.${f.name}`).toBe(es.isFieldSet(esA, esField));
          if (f.defaultValue !== undefined) expect(readDefault(f, a), `${typeName}.${f.name}`).toEqual(esDefault(f, esA, esField.localName));
        }
      }
      // unset fields with declared defaults: what create() and decode() of no bytes read, as @bufbuild's create() and fromBinary()
      const requires = model.fields.some((f) => f.flags & 4); // no bytes are no message of it
      for (const f of fields) {
        const esField = desc.fields.find((x) => x.number === f.number);
        if (esField === undefined || f.defaultValue === undefined) continue;
        defaulted++;
        const want = esDefault(f, es.create(desc), esField.localName);
        expect(want, `${typeName}.${f.name}`).toEqual(esDefault(f, es.fromBinary(desc, new Uint8Array(0)), esField.localName));
        const made = [create(T), clone(T, create(T)), ...(requires ? [] : [T.decode(new Uint8Array(0)), fromJsonString(T, "{}")])];
        for (const o of made) {
          expect([readDefault(f, o), isFieldSet(T, o, f.prop)], `${typeName}.${f.name}`).toEqual([want, false]);
        }
      }
      expect(isMessage(T, create(T)), typeName).toBe(true);
      if (!requires) {
        expect(T.encode(create(T)), typeName).toEqual(es.toBinary(desc, es.create(desc)));
      }
    }
    expect(compared).toBeGreaterThan(150); // most messages are compared (those holding extensions are not)
    expect(defaulted).toBeGreaterThanOrEqual(set === "unittest" ? 100 : 30); // TestAllTypes' default_* fields, closed enums' first values, the editions golden's
    expect(unequal).toBeGreaterThan(compared / 2); // random pairs mostly differ; the clones above are the equal ones
  });
});

describe("values", () => {
  const T = conf3.TestAllTypesProto3;

  it("equality: NaN is unequal to itself, -0 equals 0 where both are set, map order and 64-bit forms do not matter", () => {
    expect(equals(T, { optionalDouble: NaN }, { optionalDouble: NaN })).toBe(false);
    expect(equals(T, { repeatedDouble: [-0] }, { repeatedDouble: [0] })).toBe(true);
    expect(equals(T, { optionalDouble: -0 }, { optionalDouble: 0 })).toBe(false); // implicit presence: -0 is set, 0 is not
    expect(equals(T, { mapInt32Int32: { 1: 1, 2: 2 } }, { mapInt32Int32: { 2: 2, 1: 1 } })).toBe(true);
    expect(equals(T, { mapInt32Int32: { 1: 1 } }, { mapInt32Int32: { 1: 1, 2: 2 } })).toBe(false);
    expect(equals(T, { optionalInt64: 5n }, { optionalInt64: "5" as never })).toBe(true);
    expect(equals(T, { optionalInt32: 0 }, {})).toBe(true);
    expect(equals(T, { oneofField: { case: "oneofUint32", value: 0 } }, {})).toBe(false); // a oneof member is set even at 0
    expect(equals(T, { optionalNestedMessage: {} }, {})).toBe(false);
    expect(equals(T, { $unknown: new Uint8Array([0x98, 0x3f, 1]) } as never, {})).toBe(true); // unknown fields left out
  });

  it("create and clone: implicit fields at their defaults, explicit ones absent (reading a declared default, as views do), deep copies", () => {
    const P = conf2.TestAllTypesProto2;
    expect([create(P).defaultInt32, isFieldSet(P, create(P), "defaultInt32")]).toEqual([-123456789, false]);
    expect(P.view(P.encode(create(P))).defaultInt32).toBe(-123456789);
    expect(create(P).optionalInt32).toBeUndefined();
    expect(create(P, { optionalInt32: 4 }).optionalInt32).toBe(4);
    expect(create(T, { repeatedInt32: [1] })).toEqual(T.decode(T.encode({ repeatedInt32: [1] })));
    const a = create(T, { optionalNestedMessage: { a: 1 }, repeatedNestedMessage: [{ a: 2 }], optionalBytes: new Uint8Array([1]), mapStringNestedMessage: { k: { a: 3 } } });
    const b = clone(T, a);
    expect(b).toEqual(a);
    b.optionalNestedMessage!.a = 9;
    b.repeatedNestedMessage[0]!.a = 9;
    b.optionalBytes[0] = 9;
    b.mapStringNestedMessage.k!.a = 9;
    expect(a.optionalNestedMessage!.a).toBe(1);
    expect(a.repeatedNestedMessage[0]!.a).toBe(2);
    expect(a.optionalBytes[0]).toBe(1);
    expect(a.mapStringNestedMessage.k!.a).toBe(3);
  });

  it("declared defaults: read while unset by every plain object a message type makes, never set, written or printed", () => {
    const P = conf2.TestAllTypesProto2;
    const defaults = { defaultInt32: -123456789, defaultInt64: -9123456789123456789n, defaultUint64: 10123456789123456789n, defaultFloat: Math.fround(9e9), defaultDouble: 7e22, defaultBool: true, defaultString: "Rosebud" };
    const joshua = new Uint8Array([106, 111, 115, 104, 117, 97]);
    const empty = [create(P), P.decode(new Uint8Array(0)), clone(P, create(P)), fromJsonString(P, "{}"), fromJson(P, {}), fromText(P, ""), P.view(new Uint8Array(0)).$toObject(), fieldMaskApply(P, create(P), { paths: ["default_int32"] })];
    for (const o of empty) {
      expect(o).toMatchObject(defaults);
      expect(o.defaultBytes).toEqual(joshua);
      expect(Object.keys(defaults).filter((k) => isFieldSet(P, o, k) || Object.hasOwn(o, k))).toEqual([]); // not set: inherited, not own
      expect([P.encode(o).length, toJsonString(P, o), toJsonString(P, o, { emitDefaults: true }).includes("default"), toText(P, o)]).toEqual([0, "{}", false, ""]);
      expect(equals(P, o, {})).toBe(true);
      deepStrictEqual(o, create(P)); // one prototype, the same own properties
    }
    // a default is a value like any other once set: own, set, written; two decodes of the same bytes are deepStrictEqual
    const set = create(P, { defaultInt32: -123456789, defaultString: "x" });
    expect([isFieldSet(P, set, "defaultInt32"), isFieldSet(P, set, "defaultString"), isFieldSet(P, set, "defaultBool")]).toEqual([true, true, false]);
    expect(equals(P, set, create(P))).toBe(false); // as @bufbuild's equals: set in one only
    expect(toJsonString(P, set)).toBe('{"defaultInt32":-123456789,"defaultString":"x"}');
    expect(toText(P, set)).toBe('default_int32: -123456789\ndefault_string: "x"\n');
    deepStrictEqual(P.decode(P.encode(set)), set);
    deepStrictEqual(P.decode(P.encode(set)), P.decode(P.encode(set)));
    expect(merge(P, create(P), set)).toMatchObject({ defaultInt32: -123456789, defaultString: "x" });
    expect(isFieldSet(P, merge(P, create(P), create(P)), "defaultInt32")).toBe(false);
    // cleared: the default shows again, unset (as when never set)
    clearField(P, set, "defaultString");
    expect([set.defaultString, isFieldSet(P, set, "defaultString"), Object.hasOwn(set, "defaultString")]).toEqual(["Rosebud", false, false]);
    set.defaultInt32 = undefined; // an own undefined: unset, and it hides the default, as in any object
    expect([set.defaultInt32, isFieldSet(P, set, "defaultInt32"), P.encode(set).length]).toEqual([undefined, false, 0]);
    // bytes: a fresh array per read, so that writing into one changes no other message's default
    const a = create(P);
    a.defaultBytes![0] = 0;
    expect([a.defaultBytes, create(P).defaultBytes]).toEqual([joshua, joshua]);
    a.defaultBytes = new Uint8Array([1]);
    expect([isFieldSet(P, a, "defaultBytes"), P.decode(P.encode(a)).defaultBytes]).toEqual([true, new Uint8Array([1])]);
    // object literals hold what they set, so a literal without the field neither reads nor writes the default
    expect([({} as conf2.TestAllTypesProto2).defaultInt32, P.encode({}).length]).toEqual([undefined, 0]);
    // decode(bytes, { int64 }): the defaults in that form too, still unset; one that a number cannot hold exactly is a RangeError
    const s = P.decode(new Uint8Array(0), { int64: "string" });
    expect([s.defaultInt64, s.defaultUint64, s.defaultInt32, isFieldSet(P, s as never, "defaultInt64"), P.encode(s as never).length]).toEqual(["-9123456789123456789", "10123456789123456789", -123456789, false, 0]);
    deepStrictEqual(P.decode(new Uint8Array(0), { int64: "string" }), s);
    expect(P.decode(P.encode({ defaultInt64: 5n }), { int64: "string" }).defaultInt64).toBe("5");
    // a default a number cannot hold exactly: a RangeError where it is read, not for the whole decode
    const n = P.decode(P.encode({ optionalInt64: 7n }), { int64: "number" });
    expect([n.optionalInt64, isFieldSet(P, n as never, "defaultInt64"), P.encode(n as never)]).toEqual([7, false, P.encode({ optionalInt64: 7n })]);
    expect(() => n.defaultInt64).toThrow(/TestAllTypesProto2\.default_int64: its default -9123456789123456789 does not fit a JS number exactly/);
    expect([toJsonString(P, n as never), toText(P, n as never), equals(P, n as never, n as never), P.encode(clone(P, n as never))]).toEqual(['{"optionalInt64":"7"}', "optional_int64: 7\n", true, P.encode({ optionalInt64: 7n })]);
    n.defaultInt64 = 5;
    expect(n.defaultInt64).toBe(5);
    expect(P.decode(new Uint8Array(0), { int64: "bigint" }).defaultInt64).toBe(-9123456789123456789n);
  });

  it("merge: scalars replace, messages merge, lists append, map entries and oneof members replace, unknown fields append", () => {
    const target = create(T, { optionalInt32: 1, optionalString: "keep", optionalNestedMessage: { a: 1 }, repeatedInt32: [1], mapInt32Int32: { 1: 1, 2: 2 }, oneofField: { case: "oneofString", value: "s" } });
    (target as any).$unknown = new Uint8Array([0x98, 0x3f, 1]);
    const source = { optionalInt32: 2, optionalNestedMessage: { corecursive: { optionalInt32: 5 } }, repeatedInt32: [2, 3], mapInt32Int32: { 2: 20, 3: 30 }, oneofField: { case: "oneofUint32" as const, value: 7 }, $unknown: new Uint8Array([0xa0, 0x3f, 2]) };
    expect(merge(T, target, create(T, source as never))).toBe(target);
    expect(target).toMatchObject({ optionalInt32: 2, optionalString: "keep", repeatedInt32: [1, 2, 3], mapInt32Int32: { 1: 1, 2: 20, 3: 30 }, oneofField: { case: "oneofUint32", value: 7 } });
    expect(target.optionalNestedMessage).toMatchObject({ a: 1, corecursive: { optionalInt32: 5 } });
    expect((target as any).$unknown).toEqual(new Uint8Array([0x98, 0x3f, 1, 0xa0, 0x3f, 2]));
  });

  it("decode(bytes, { int64 }): every 64-bit integer in that form, at any depth; a number that would round is a RangeError", () => {
    // the same object with its bigints mapped, by a plain deep walk
    const mapped = (v: unknown, f: (b: bigint) => unknown): unknown =>
      typeof v === "bigint" ? f(v) : v instanceof Uint8Array || v === null || typeof v !== "object" ? v
        : Array.isArray(v) ? v.map((x) => mapped(x, f)) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapped(x, f)]));
    const loaded = loadSet("conformance");
    const model = loaded.models.get(T.typeName)!;
    const r = rng(64);
    for (let i = 0; i < 30; i++) {
      const bytes = encodeWithProtobufjs(loaded, T.typeName, randomObject(loaded, model, r));
      const plain = T.decode(bytes);
      expect(T.decode(bytes, { int64: "string" })).toEqual(mapped(plain, String));
      expect(T.decode(bytes, { int64: "bigint" })).toEqual(plain);
      const small = T.decode(T.encode(mapped(plain, (b) => BigInt.asUintN(31, b)) as never)); // every value fits a number
      expect(T.decode(T.encode(small), { int64: "number" })).toEqual(mapped(small, Number));
    }
    const deep = { optionalInt64: 1n, repeatedUint64: [2n], mapInt64Int64: { "-3": 4n }, optionalNestedMessage: { corecursive: { optionalSint64: -5n } }, oneofField: { case: "oneofUint64" as const, value: 6n } };
    const s = T.decode(T.encode(deep), { int64: "string" });
    expect([s.optionalInt64, s.repeatedUint64, s.mapInt64Int64, s.optionalNestedMessage?.corecursive?.optionalSint64, s.oneofField]).toEqual(["1", ["2"], { "-3": "4" }, "-5", { case: "oneofUint64", value: "6" }]);
    expect(() => T.decode(T.encode({ repeatedInt64: [1n, 2n ** 60n] }), { int64: "number" })).toThrow(/TestAllTypesProto3\.repeated_int64\[1\]: 1152921504606846976 does not fit/);
    expect(T.decode(T.encode({ optionalInt64: -(2n ** 53n) + 1n }), { int64: "number" }).optionalInt64).toBe(-(2 ** 53) + 1);
  });

  it("decode(bytes, { int64 }) through a cycle: a message reached again before the walk that reached it is done", () => {
    // A's walk reaches B before C: B's only way to a 64-bit field goes back through A
    const types = schemaFromSources({ "c.proto": 'syntax = "proto3";\nmessage A { B b = 1; C c = 2; }\nmessage B { A a = 1; }\nmessage C { int64 x = 1; }\n' }, ["c.proto"]).types;
    const A = types.get("A")!;
    const s = A.decode(A.encode({ b: { a: { c: { x: 5n } } }, c: { x: 6n } }), { int64: "string" }) as { b: { a: { c: { x: unknown } } }; c: { x: unknown } };
    expect([s.b.a.c.x, s.c.x]).toEqual(["5", "6"]);
  });

  it("is(): views of the type and plain objects typed as its interface types them", () => {
    const ok = create(T, { optionalInt64: 5n, optionalNestedMessage: { a: 1 }, repeatedInt32: [1], mapInt32Int32: { "-3": 4 }, oneofField: { case: "oneofString", value: "s" } });
    expect(isMessage(T, ok)).toBe(true);
    expect(isMessage(T, { ...ok, somethingElse: 1 })).toBe(true); // extra properties, as TypeScript allows
    const wrong: Record<string, unknown>[] = [
      { optionalInt32: 1.5 }, { optionalInt32: 2 ** 31 }, { optionalUint32: -1 }, { optionalInt64: 5 }, { optionalInt64: 2n ** 63n },
      { optionalUint64: -1n }, { optionalString: 1 }, { optionalBytes: [1] }, { optionalBool: 0 }, { optionalFloat: "1" },
      { optionalInt32: undefined }, { repeatedInt32: new Int32Array(1) }, { repeatedInt32: [1, "2"] }, { mapInt32Int32: { x: 1 } },
      { mapInt32Int32: { "2147483648": 1 } }, { mapBoolBool: { yes: true } }, { optionalNestedMessage: null }, { optionalNestedMessage: { a: "1" } },
      { oneofField: { case: "oneofString", value: 1 } }, { oneofField: { case: "nope", value: 1 } }, { oneofField: {} }, { $unknown: "x" },
    ];
    for (const w of wrong) expect(isMessage(T, { ...ok, ...w }), JSON.stringify(Object.keys(w))).toBe(false);
    expect([isMessage(T, null), isMessage(T, []), isMessage(T, "x"), isMessage(T, undefined)]).toEqual([false, false, false, false]);
    const cycle = create(T) as any;
    cycle.recursiveMessage = cycle;
    expect(isMessage(T, cycle)).toBe(false); // nesting past 100
    expect(isMessage(T, T.view(T.encode(ok)))).toBe(true);
    expect(isMessage(T, conf2.TestAllTypesProto2.view(conf2.TestAllTypesProto2.encode({ optionalString: "x" })))).toBe(false);
    expect(isMessage(T, builder(T))).toBe(true);
  });

  it("the README's round trip: deepStrictEqual holds for an object with every field (create() makes one), not for a literal leaving one out", () => {
    const P2 = conf2.TestAllTypesProto2;
    const full = create(P2, { optionalInt32: 1, optionalNestedMessage: { a: 2 }, repeatedString: ["x"], mapInt32Int32: { 1: 2 }, defaultInt32: 3 });
    deepStrictEqual(P2.decode(P2.encode(full)), full);
    deepStrictEqual(P2.decode(P2.encode(create(P2))), create(P2)); // fields with declared defaults left out alike
    const literal = { optionalInt32: 1 };
    notDeepStrictEqual(P2.decode(P2.encode(literal)), literal); // decode() makes the absent fields own properties
    deepStrictEqual(P2.decode(P2.encode(literal)), create(P2, literal));
  });

  it("isSet and clear, by property name; an unknown name is a TypeError", () => {
    const m = create(T, { optionalInt32: 3, oneofField: { case: "oneofUint32", value: 0 }, repeatedInt32: [1] });
    expect([isFieldSet(T, m, "optionalInt32"), isFieldSet(T, m, "optionalString"), isFieldSet(T, m, "oneofUint32"), isFieldSet(T, m, "oneofString"), isFieldSet(T, m, "repeatedInt32")]).toEqual([true, false, true, false, true]);
    clearField(T, m, "optionalInt32");
    clearField(T, m, "oneofUint32");
    clearField(T, m, "repeatedInt32");
    expect(m).toEqual(create(T));
    expect(() => isFieldSet(T, m, "optional_int32")).toThrow(TypeError);
    // -0: set exactly when encode() writes it (an integer's -0 is its zero; a double's is a value)
    for (const f of ["optionalInt32", "optionalUint64", "optionalDouble", "optionalFloat"] as const) {
      const zero = { [f]: -0 } as Parameters<typeof T.encode>[0];
      expect(isFieldSet(T, zero as never, f), f).toBe(T.encode(zero).length > 0);
    }
    expect(isFieldSet(T, { optionalInt32: -0 } as never, "optionalInt32")).toBe(false);
    expect(isFieldSet(T, { optionalDouble: -0 } as never, "optionalDouble")).toBe(true);
    expect(() => clearField(T, m, "nope")).toThrow(TypeError);
    // a oneof by its own name: set when a member is, cleared whole
    const o = create(T, { oneofField: { case: "oneofString", value: "" } });
    expect([isFieldSet(T, o, "oneofField"), isFieldSet(T, create(T), "oneofField"), isFieldSet(T, T.view(T.encode(o)), "oneofField")]).toEqual([true, false, true]);
    expect(clearField(T, o, "oneofField").oneofField).toBeUndefined();
    expect(T.encode(o)).toEqual(new Uint8Array(0));
    // a view of another type is refused, not read with this type's layout
    const other = conf2.TestAllTypesProto2.view(conf2.TestAllTypesProto2.encode({ optionalString: "x" }));
    expect(() => equals(T, other as never, m)).toThrow(/a view of another message type/);
    expect(() => clone(T, other as never)).toThrow(TypeError);
  });
});
