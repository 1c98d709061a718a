// The generated decoders of plain objects (codegen/emit/decode.ts: wire bytes straight to objects,
// what decodeX runs) against decode() through records (the compiled decoders, then the readers),
// on every message that has one in the test schema sets (conformance and editions, unittest and its
// maps, the benchmark schemas): random wire bytes shaped by the schema and mutations of them, valid
// and not, one in four two messages run together (a merge). Both must make equal objects, or throw
// the same error (code, offset, path). Prints inputs per outcome; exits 1 on the first difference
// (saved under build/fuzz/plain/).
// Usage: node fuzz/plain.mjs [SECONDS] [SEED]   (after npm run build)
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { init, MessageType } from "hppproto";
import { generate } from "../dist/codegen/cli.js";
import { randomSource } from "./random.mjs";
import { fuzzSets } from "./sets.mjs";
import { mutate, randomInput } from "../test/support/wirecheck.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.argv[2] ?? 30);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const outDir = path.join(root, "build/fuzz/plain");
const sets = fuzzSets(root);

await init();
/** Each message with a generated decoder: its type and its decodeX (what the generator names it: decode + the type's name, "$"s aside). */
const pairs = [];
for (const [name, [protoPath, files]] of Object.entries(sets)) {
  const out = path.join(outDir, name);
  generate({ files: files.map((f) => path.join(protoPath, f)), out, protoPaths: [protoPath], target: "js" });
  const modules = [];
  const walk = (at) => {
    for (const f of readdirSync(at).sort()) {
      const full = path.join(at, f);
      if (statSync(full).isDirectory()) walk(full);
      else if (f.endsWith("_pb.js")) modules.push(full);
    }
  };
  walk(out);
  for (const file of modules) {
    const mod = await import(pathToFileURL(file).href);
    for (const [key, type] of Object.entries(mod)) {
      if (!(type instanceof MessageType)) continue;
      const decode = mod[`decode${key.replace(/\$+$/, "")}`];
      // (a message without a generated decoder, decode$ and its name, decodes through records: its decodeX is decode()'s path)
      if (typeof decode === "function" && typeof mod[`decode$${key}`] === "function") pairs.push({ set: name, type, decode });
    }
  }
}

const perSet = new Map();
for (const p of pairs) perSet.set(p.set, (perSet.get(p.set) ?? 0) + 1);
console.log(`seed ${seed}, ${seconds} s, ${[...perSet].map(([name, n]) => `${name}: ${n} messages`).join(", ")}`);

// Linear in what hostile input can repeat: unknown fields (joined one by one they took quadratic time)
// and merges of a map-holding message; 4N must take about 4x the time of N (quadratic: 16x)
{
  const tick = pairs.find((p) => p.type.typeName === "bench.tick.Tick");
  const value = pairs.find((p) => p.type.typeName === "google.protobuf.Value");
  const repeat = (unit, count) => {
    const out = new Uint8Array(unit.length * count);
    for (let i = 0; i < count; i++) out.set(unit, i * unit.length);
    return out;
  };
  const shapes = [
    ["unknown fields", tick, [0xc0, 0x3e, 0x00]], // field 1000, varint 0
    ["a struct merged again and again", value, [0x2a, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0x61]], // struct_value { "a" }
    ["a struct with an unknown field merged again and again", value, [0x2a, 0x03, 0x9a, 0x05, 0x00]], // struct_value { field 83 }
  ];
  const timeOf = (decode, bytes) => {
    const t0 = performance.now();
    decode(bytes);
    return performance.now() - t0;
  };
  for (const [name, { decode }, unit] of shapes) {
    let count = 1000;
    while (timeOf(decode, repeat(unit, count)) < 50 && count < 1 << 22) count *= 2;
    const ratio = timeOf(decode, repeat(unit, 4 * count)) / timeOf(decode, repeat(unit, count));
    console.log(`${ratio < 8 ? "ok  " : "FAIL"} ${name}: ${count} -> ${4 * count}, ${ratio.toFixed(1)}x the time`);
    if (ratio >= 8) process.exit(1);
  }
}

const outcome = (fn) => {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: e.name === "DecodeError" ? `${e.code} at ${e.offset} (${e.path})` : `${e.name}: ${e.message}` };
  }
};
const r = randomSource(seed);
const counts = { same: 0, error: 0 };
const deadline = Date.now() + seconds * 1000;
let inputs = 0;
/** Whether a and b have their own properties in the same order all the way down (isDeepStrictEqual ignores the order; found by review: merges of messages with defaults reordered them). */
function sameOrder(a, b) {
  if (typeof a !== "object" || a === null || ArrayBuffer.isView(a)) return true;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameOrder(a[k], b[k]));
}

while (Date.now() < deadline) {
  for (let k = 0; k < 200; k++) {
    const { type, decode, set } = r.pick(pairs);
    let bytes = randomInput(type.schemaDef, type.index, r);
    if (r.below(4) === 0) {
      const second = randomInput(type.schemaDef, type.index, r);
      const both = new Uint8Array(bytes.length + second.length);
      both.set(bytes);
      both.set(second, bytes.length);
      bytes = both;
    }
    if (r.rand() < 0.5) bytes = mutate(bytes, r);
    inputs++;
    const a = outcome(() => decode(bytes)), b = outcome(() => type.decode(bytes));
    const same = a.error !== undefined || b.error !== undefined ? a.error === b.error : isDeepStrictEqual(a.value, b.value) && sameOrder(a.value, b.value);
    if (!same) {
      mkdirSync(outDir, { recursive: true });
      const file = path.join(outDir, `difference-${seed}.bin`);
      writeFileSync(file, bytes);
      console.error(`${set} ${type.typeName}: generated decoder ${a.error ?? "decoded"}, through records ${b.error ?? "decoded"}${a.error === undefined && b.error === undefined ? " (the objects differ)" : ""}\ninput saved to ${file}`);
      process.exit(1);
    }
    counts[a.error === undefined ? "same" : "error"]++;
  }
}
console.log(`${inputs} inputs: ${counts.same} decoded to equal objects by both, ${counts.error} refused with the same error; 0 differences`);
