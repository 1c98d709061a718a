// Stateful fuzzing of the JS/WASM boundary: random sequences of views (default arena and own
// arenas, some with small limits), plain decodes, batches, stream pushes, encodes whose getters
// start other encodes and decodes, arena resets and releases, dropped builders, calls that run
// out of stack inside WASM, ProtoJSON of Any in Any near and far past its depth limit, and runtime
// schemas from mutated descriptor sets (each must load and work, or be refused with a SchemaError).
// After every step each live view must read exactly its message or throw StaleViewError, never
// another message's data, and a canary decode must work. Exits 1 on the first violation (the seed
// replays it). First, a scaling check: maps whose keys collide in the codec's hash must cost about
// what maps of random keys cost, on every JSON path.
// Usage: node --expose-gc fuzz/boundary.mjs [SECONDS] [SEED]   (after npm run build)
import { createRequire } from "node:module";
import { Arena, DecodeError, getLimits, DelimitedReader, EncodeError, init, JsonError, SchemaError, StaleViewError, toJsonString, fromJsonString, encodeFromJsonString, decodeToJsonString, builder, fieldsOf } from "hppproto";
import { describeFiles } from "../dist/codegen/describe.js";
import { schemaFromDescriptorSet } from "../dist/codegen/dynamic.js";
import { parseProtos } from "../dist/codegen/parse.js";
import { prepare, genDir } from "../test/conformance/prepare.mjs";
import { collidingKeys, randomKeys } from "../test/support/collisions.mjs";

const seconds = Number(process.argv[2] ?? 30);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
prepare();
const { TestAllTypesProto3: T } = await import(`${genDir}/google/protobuf/test_messages_proto3_pb.js`);
const { Any } = await import(`${genDir}/google/protobuf/any_pb.js`);
await init();

let state = seed;
const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
const int = (n) => Math.floor(random() * n);

/** A random message: a few scalars, strings of every length class, a list, a map, nesting. */
function message(depth = 0) {
  const m = { optionalInt32: int(2 ** 31) - 2 ** 30, optionalString: "s".repeat(int(3) === 0 ? int(5000) : int(20)) + depth };
  if (random() < 0.5) m.optionalBytes = Uint8Array.from({ length: int(40) }, () => int(256));
  if (random() < 0.5) m.repeatedInt32 = Array.from({ length: int(50) }, () => int(1000));
  if (random() < 0.3) m.mapStringString = { [`k${int(9)}`]: "v".repeat(int(30)) };
  if (depth < 20 && random() < 0.4) m.recursiveMessage = message(depth + 1);
  return m;
}

/** What a message reads as through a view, compared field by field down the recursion. */
function expectView(v, m, path = "") {
  if (v.optionalInt32 !== m.optionalInt32 || v.optionalString !== m.optionalString) throw new Error(`view shows another message at ${path}`);
  if ((m.repeatedInt32 ?? []).join() !== Array.from(v.repeatedInt32).join()) throw new Error(`view's list differs at ${path}`);
  if (m.recursiveMessage) expectView(v.recursiveMessage, m.recursiveMessage, `${path}.recursiveMessage`);
}

// Descriptor sets to mutate: files of every syntax with maps, oneofs, groups, enums, extensions,
// defaults and services, as descriptor.proto's objects (protobufjs's toObject form)
const descriptor = createRequire(import.meta.url)("protobufjs/ext/descriptor");
const baseSources = {
  "a.proto": `syntax = "proto2"; package a; import "b.proto";
    message M { optional int64 i = 1 [default = -7]; optional string s = 2 [default = "x\\001"]; repeated int32 r = 3 [packed = true];
      map<string, N> m = 4; oneof o { uint32 u = 5; b.E e = 6 [default = B2]; } optional group G = 7 { optional bytes g = 8 [default = "\\377"]; }
      required double d = 9 [default = inf]; optional float f = 10 [default = 1.5]; extensions 100 to 199; }
    message N { optional M m = 1; optional bool b = 2 [default = true]; enum Kind { K0 = 0; K1 = 1; } optional Kind k = 3 [default = K1]; }
    extend M { optional sfixed64 x = 100 [default = 9007199254740993]; repeated N xs = 101; }`,
  "b.proto": `syntax = "proto3"; package b; enum E { B0 = 0; B2 = 2; }
    message P { optional int32 o = 1; map<int64, E> m = 2; repeated string s = 3; oneof k { bytes y = 4; P p = 5; } }
    service S { rpc Get(P) returns (P); }`,
  "c.proto": `edition = "2023"; package c; import "a.proto";
    message Q { int32 i = 1 [features.field_presence = IMPLICIT]; a.M m = 2 [features.message_encoding = DELIMITED]; sint64 z = 3 [default = 5]; }`,
};
const baseSet = describeFiles(parseProtos(["c.proto"], { resolve: (t) => t, read: (f) => baseSources[f], importName: (f) => f }))
  .map((f) => descriptor.FileDescriptorProto.toObject(descriptor.FileDescriptorProto.fromObject(f)));
const pick = (list) => list[int(list.length)];
const messagesOf = (list) => (list ?? []).flatMap((m) => [m, ...messagesOf(m.nestedType)]);
const strange = ["", "x", "abc", "nan", "-inf", "1e5", "0x10", "-1", "010", " 7 ", "true", "\\", "\\U0011FFFF", "B2", "K1", "99999999999999999999", ".a.M", "a.N", ".b.E", ".a.M.MEntry", ".nope"];
/** One random change to a descriptor set: a field, a message, an enum or a file made odd. */
function mutate(files) {
  const file = pick(files), messages = messagesOf(file.messageType), m = pick(messages), fields = m ? [...(m.field ?? []), ...(m.extension ?? [])] : [];
  const f = pick(fields.length ? fields : file.extension ?? [{}]);
  const other = pick(fields.length ? fields : [{}]);
  const change = pick([
    () => (f.number = pick([0, -1, other.number, 19000, 2 ** 29, 2 ** 31 - 1, int(300)])),
    () => delete f[pick(["name", "number", "label", "type", "typeName", "extendee", "oneofIndex", "jsonName", "defaultValue"])],
    () => (f.typeName = pick(strange)),
    () => (f.type = int(21)),
    () => (f.label = int(5)),
    () => (f.oneofIndex = int(4) - 1),
    () => (f.defaultValue = pick(strange)),
    () => (f.jsonName = pick([other.jsonName, other.name, "x", ""])),
    () => (f.extendee = pick(strange)),
    () => (f.proto3Optional = true),
    () => (f.options = { ...f.options, packed: random() < 0.5, jstype: int(3) }),
    () => (f.name = pick([other.name, "", "a-b", "__proto__", "x".repeat(int(2) ? 3 : 5000)])),
    () => m && (m.options = { ...m.options, mapEntry: random() < 0.5, messageSetWireFormat: random() < 0.3 }),
    () => m && (m.name = pick(["", m.name + "2", pick(messages).name])),
    () => m && (m.oneofDecl = random() < 0.5 ? [] : [...(m.oneofDecl ?? []), { name: "extra" }]),
    () => m && (m.extensionRange = [{ start: int(300) - 50, end: int(600) - 50 }]),
    () => m && (m.nestedType = [...(m.nestedType ?? []), structuredClone(pick(messages))]),
    () => file.enumType?.[0] && (file.enumType[0].value = random() < 0.5 ? [] : [{ name: "Z", number: int(3) }, ...file.enumType[0].value]),
    () => (file.syntax = pick(["proto2", "proto3", "editions", "proto4", ""])),
    () => (file.edition = pick([0, 998, 999, 1000, 1001, 9999])),
    () => (file.dependency = [pick(["a.proto", "z.proto"])]),
    () => (file.package = pick(["", "a", "b.c", "a..b", "1x"])),
  ]);
  change();
}

/** A mutated descriptor set loads as a working schema or is refused with a SchemaError; nothing else escapes. */
function descriptorSetStep() {
  const files = structuredClone(baseSet);
  for (let i = 1 + int(3); i > 0; i--) mutate(files);
  let bytes = descriptor.FileDescriptorSet.encode(descriptor.FileDescriptorSet.fromObject({ file: files })).finish();
  if (random() < 0.2) {
    bytes = bytes.slice(0, random() < 0.5 ? int(bytes.length) : bytes.length);
    for (let i = int(4); i > 0 && bytes.length > 0; i--) bytes[int(bytes.length)] = int(256);
  }
  let schema;
  try {
    schema = schemaFromDescriptorSet(bytes);
  } catch (e) {
    if (!(e instanceof SchemaError)) throw new Error(`a mutated descriptor set threw ${e?.name}: ${String(e?.message).slice(0, 300)}`);
    if (e.message.length > 400) throw new Error(`a SchemaError echoes its input: ${e.message.slice(0, 200)}…`);
    stats.setsRefused++;
    return;
  }
  stats.setsLoaded++;
  for (const T of schema.types.values()) {
    const attempt = (run) => {
      try {
        run();
      } catch (e) {
        if (!(e instanceof DecodeError || e instanceof EncodeError || e instanceof JsonError)) throw new Error(`${T.typeName} of a mutated set threw ${e?.name}: ${String(e?.message).slice(0, 300)}`);
      }
    };
    attempt(() => toJsonString(T, T.decode(T.encode({}))));
    attempt(() => {
      const v = T.view(new Uint8Array(0));
      for (const f of fieldsOf(T)) v[f.property];
    });
    attempt(() => T.decode(Uint8Array.from({ length: int(30) }, () => int(256))));
    attempt(() => fromJsonString(T, "{}"));
  }
}

const live = []; // { view, message }: every view made, with the message it must show while valid
const arenas = [];
const stats = { steps: 0, stale: 0, refused: 0, traps: 0, tooDeep: 0, setsLoaded: 0, setsRefused: 0 };

function checkLive() {
  for (const { view, message: m } of live) {
    try {
      expectView(view, m);
    } catch (e) {
      if (e instanceof StaleViewError) stats.stale++;
      else throw e;
    }
  }
}

const steps = [
  // views on the default arena: earlier ones there go stale
  () => {
    const m = message();
    live.push({ view: T.view(T.encode(m)), message: m });
  },
  // views on own arenas, some with limits a message may not fit
  () => {
    const arena = arenas[int(arenas.length)] ?? new Arena({ limit: random() < 0.3 ? 64 + int(20_000) : undefined });
    if (!arenas.includes(arena)) arenas.push(arena);
    const m = message();
    try {
      live.push({ view: T.view(T.encode(m), arena), message: m });
    } catch (e) {
      if (!(e instanceof DecodeError && ["OUT_OF_MEMORY", "MEMORY_BUDGET"].includes(e.code))) throw e;
      stats.refused++;
    }
  },
  () => arenas.length && arenas[int(arenas.length)].reset(),
  () => arenas.length && arenas.splice(int(arenas.length), 1)[0].release(),
  // copies out, batches and stream pushes, which leave views alone
  () => {
    const m = message();
    const back = T.decode(T.encode(m));
    if (back.optionalString !== m.optionalString) throw new Error("decode() differs");
  },
  () => {
    const ms = Array.from({ length: 1 + int(5) }, () => message());
    const reader = new DelimitedReader(T);
    const bytes = T.encodeDelimited(ms);
    const cut = int(bytes.length);
    const got = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
    if (got.map((x) => x.optionalString).join() !== ms.map((x) => x.optionalString).join()) throw new Error("stream push differs");
  },
  // encodes started from getters of the message being encoded
  () => {
    const inner = message();
    const outer = { optionalInt32: 1, get optionalBytes() { return T.encode(inner); }, get optionalString() { T.decode(T.encode(inner)); T.view(T.encode(inner)); return "outer"; } };
    const back = T.decode(T.encode(outer));
    if (back.optionalString !== "outer" || T.decode(back.optionalBytes).optionalString !== inner.optionalString) throw new Error("re-entrant encode mixed its messages");
  },
  // builders dropped without release
  () => {
    for (let i = 0; i < 50; i++) builder(T).optionalString = "dropped";
    if (random() < 0.1) globalThis.gc?.();
  },
  // out of stack inside WASM: near the top of the JS stack, a deep message
  () => {
    let deep = { optionalInt32: 1 };
    for (let i = 0; i < 90; i++) deep = { recursiveMessage: deep };
    const bytes = T.encode(deep);
    let decoded = false; // from there up the stack every call has room
    const dive = () => {
      try {
        dive();
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
      }
      if (decoded) return;
      try {
        decoded = T.decode(bytes) !== undefined;
      } catch (e) {
        if ((e instanceof DecodeError || e instanceof EncodeError) && e.code === "DEPTH_LIMIT") stats.traps++;
        else if (!(e instanceof RangeError)) throw e; // the stack ran out in JS, before WASM
      }
    };
    dive();
  },
  // Any in Any, around ProtoJSON's depth limit and far past it: text that reads back, or a JsonError,
  // never a RangeError (each level's bytes are decoded afresh, out of reach of maxDepth)
  () => {
    const levels = random() < 0.2 ? 6000 : 190 + int(20);
    // (innermost a flat message, merged into the last Any's object: the text nests levels + 1 objects)
    let any = { typeUrl: `type.googleapis.com/${T.typeName}`, value: T.encode({ optionalInt32: int(1000), optionalString: "inner" }) };
    for (let i = 1; i < levels; i++) any = { typeUrl: "type.googleapis.com/google.protobuf.Any", value: Any.encode(any) };
    const bytes = T.encode({ optionalAny: any });
    for (const write of [() => decodeToJsonString(T, bytes), () => toJsonString(T, T.view(bytes)), () => toJsonString(T, T.decode(bytes))]) {
      try {
        const text = write();
        if (levels >= 200 || T.encode(fromJsonString(T, text)).length !== bytes.length) throw new Error(`Any nested ${levels} deep written as text that does not read back`);
      } catch (e) {
        if (!(e instanceof JsonError && levels >= 200)) throw e;
        stats.tooDeep++;
      }
    }
  },
  descriptorSetStep,
];

/**
 * Map keys crafted to collide against random keys of the same length, 4,096 and 32,768 of each, on
 * each JSON path over a map<string, string> (best of 3 runs). A duplicate-key check quadratic on
 * colliding keys takes 80 times as long for them at 32,768 (2.6 s against 30 ms, before
 * map_keys.hpp fell back to sorting them: 140-350 times, measured with this check); a bounded one
 * (O(n log n)) stays within a small factor of random keys (2-7 times).
 */
function mapKeyScaling() {
  const paths = {
    fromJsonString: (text) => fromJsonString(T, text),
    encodeFromJsonString: (text) => encodeFromJsonString(T, text),
    decodeToJsonString: (_text, bytes) => decodeToJsonString(T, bytes),
  };
  const problems = [];
  const times = {}; // by path: [colliding, random] per size
  for (const rounds of [12, 15]) {
    const inputs = [collidingKeys(rounds), randomKeys(rounds)].map((keys) => {
      const map = Object.fromEntries(keys.map((k) => [k, "v"]));
      return [JSON.stringify({ mapStringString: map }), T.encode({ mapStringString: map })];
    });
    for (const [name, run] of Object.entries(paths)) {
      const [colliding, randomly] = inputs.map(([text, bytes]) => {
        let best = Infinity;
        for (let i = 0; i < 3; i++) {
          const start = performance.now();
          run(text, bytes);
          best = Math.min(best, performance.now() - start);
        }
        return best;
      });
      console.log(`map keys: ${2 ** rounds} colliding keys ${colliding.toFixed(1)} ms, random ${randomly.toFixed(1)} ms (${name})`);
      (times[name] ??= []).push([colliding, randomly]);
    }
  }
  // (the ratios with 5 ms added: a collection or another process may land in a short run)
  for (const [name, [[small, smallRandom], [large, largeRandom]]] of Object.entries(times)) {
    const [before, after] = [(small + 5) / (smallRandom + 5), (large + 5) / (largeRandom + 5)];
    if (after > 15) problems.push(`${name}: colliding keys took ${before.toFixed(1)}x the time of random ones at 4,096, ${after.toFixed(1)}x at 32,768`);
  }
  if (problems.length > 0) {
    console.log(`VIOLATION: maps of colliding keys cost more than a bounded check allows:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
}
mapKeyScaling();

const canary = T.encode({ optionalInt32: 42, optionalString: "canary" });
const deadline = Date.now() + seconds * 1000;
console.log(`boundary fuzzing for ${seconds} s, seed ${seed}`);
try {
  while (Date.now() < deadline) {
    for (let i = 0; i < 20; i++) {
      steps[int(steps.length)]();
      stats.steps++;
      checkLive();
      if (live.length > 200) live.splice(0, 100);
      const c = T.decode(canary);
      if (c.optionalString !== "canary") throw new Error("the canary decode failed");
    }
  }
} catch (e) {
  console.log(`VIOLATION after ${stats.steps} steps (seed ${seed}): ${e.stack ?? e}`);
  process.exit(1);
}
for (const a of arenas) a.release();
console.log(`${stats.steps} steps, ${stats.stale} stale reads refused, ${stats.refused} decodes over an arena limit refused, ${stats.traps} stack overflows in WASM recovered, ${stats.tooDeep} Anys nested past ProtoJSON's depth refused, ${stats.setsLoaded} mutated descriptor sets loaded and ${stats.setsRefused} refused; limits ${JSON.stringify(getLimits())}`);
