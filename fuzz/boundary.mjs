// Stateful fuzzing of the JS/WASM boundary: random sequences of views (default arena and own
// arenas, some with small limits), plain decodes, batches, stream pushes, encodes whose getters
// start other encodes and decodes, arena resets and releases, dropped builders, calls that run
// out of stack inside WASM, and ProtoJSON of Any in Any near and far past its depth limit. After every step each live view must read exactly its message or throw
// StaleViewError, never another message's data, and a canary decode must work. Exits 1 on the
// first violation (the seed replays it). First, a scaling check: maps whose keys collide in the
// codec's hash must cost about what maps of random keys cost, on every JSON path.
// Usage: node --expose-gc fuzz/boundary.mjs [SECONDS] [SEED]   (after npm run build)
import { Arena, DecodeError, DelimitedReader, EncodeError, init, JsonError, runtime, StaleViewError } from "hppproto";
import { prepare, genDir } from "../test/conformance/prepare.mjs";
import { collidingKeys, randomKeys } from "../test/support/collisions.mjs";

const seconds = Number(process.argv[2] ?? 30);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
prepare();
const { TestAllTypesProto3: T } = await import(`${genDir}/google/protobuf/test_messages_proto3_pb.js`);
const Any = T.schemaDef.types[T.schemaDef.messages.findIndex((m) => m.name === "google.protobuf.Any")];
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

const live = []; // { view, message }: every view made, with the message it must show while valid
const arenas = [];
const stats = { steps: 0, stale: 0, refused: 0, traps: 0, tooDeep: 0 };

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
    for (let i = 0; i < 50; i++) T.builder().optionalString = "dropped";
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
    for (const write of [() => T.decodeToJsonString(bytes), () => T.toJsonString(T.view(bytes)), () => T.toJsonString(T.decode(bytes))]) {
      try {
        const text = write();
        if (levels >= 200 || T.encode(T.fromJsonString(text)).length !== bytes.length) throw new Error(`Any nested ${levels} deep written as text that does not read back`);
      } catch (e) {
        if (!(e instanceof JsonError && levels >= 200)) throw e;
        stats.tooDeep++;
      }
    }
  },
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
    fromJsonString: (text) => T.fromJsonString(text),
    encodeFromJsonString: (text) => T.encodeFromJsonString(text),
    decodeToJsonString: (_text, bytes) => T.decodeToJsonString(bytes),
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
console.log(`${stats.steps} steps, ${stats.stale} stale reads refused, ${stats.refused} decodes over an arena limit refused, ${stats.traps} stack overflows in WASM recovered, ${stats.tooDeep} Anys nested past ProtoJSON's depth refused; limits ${JSON.stringify(runtime().limits)}`);
