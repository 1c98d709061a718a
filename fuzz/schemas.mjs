// Runtime schemas under load: (1) .proto source handling is linear: for each shape of source, the
// time for 4N must stay near 4x the time for N (quadratic handling gives 16x); (2) dropped schemas
// are collected: schemas built, used and dropped leave neither JS heap nor their WASM tables behind.
// Exits 1 on the first failure. Timing checks live here, not in unit tests: they need a quiet machine.
// Usage: node --expose-gc fuzz/schemas.mjs [N]   (after npm run build; N: the smallest source's units, default 500)
import { fromText, init, toJsonString } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { schemaFromDescriptorSet, schemaFromSources } from "../dist/codegen/dynamic.js";

if (globalThis.gc === undefined) throw new Error("run with node --expose-gc");
const n = Number(process.argv[2] ?? 500);
await init();

/** Sources of each shape, `count` units long. */
const shapes = {
  "int64 defaults": (count) => 'syntax = "proto2";\n' + blocks(count, 200, (i) => `  optional int64 f${i} = ${i + 1} [default = ${9007199254740993n + BigInt(i)}];\n`),
  "string defaults": (count) => 'syntax = "proto2";\n' + blocks(count, 200, (i) => `  optional bytes f${i} = ${i + 1} [default = "\\001\\x02${i}"];\n`),
  "extensions in groups": (count) => 'syntax = "proto2";\nmessage M {\n  optional group G = 1 {\n' + lines(count, (i) => `    extensions ${i * 2 + 100} to ${i * 2 + 101};\n`) + "  }\n}\n",
  "64-bit option values": (count) => 'syntax = "proto2";\nimport "google/protobuf/descriptor.proto";\nextend google.protobuf.FieldOptions { optional uint64 big = 50000; }\n' +
    blocks(count, 200, (i) => `  optional int32 f${i} = ${i + 1} [(big) = ${18446744073709551615n - BigInt(i)}];\n`),
  "messages": (count) => 'syntax = "proto3";\npackage p;\n' + lines(count, (i) => `message M${i} { int32 a = 1; M${Math.max(0, i - 1)} b = 2; }\n`),
  "blank lines": (count) => 'syntax = "proto3";\n' + "\n".repeat(count * 50) + "message M { int32 a = 1; }\n",
};
const lines = (count, line) => Array.from({ length: count }, (_, i) => line(i)).join("");
const blocks = (count, size, line) => lines(Math.ceil(count / size), (m) => `message M${m} {\n${lines(size, line)}}\n`);

const descriptorProto = await import("node:fs").then((fs) => fs.readFileSync(new URL("../testdata/protos/conformance/google/protobuf/descriptor.proto", import.meta.url), "utf8"));
const build = (text) => schemaFromSources({ "a.proto": text, "google/protobuf/descriptor.proto": descriptorProto }, ["a.proto"]);

/** Milliseconds to build the schema of an input, the best of three. */
function timeOf(input, load = build) {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    gc();
    const start = performance.now();
    load(input);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

// Descriptor sets, checked as protoc checks them (codegen/validate.ts): a message of N fields, N
// reserved numbers and N extension numbers, and N extensions of it (each field and extension
// looked up in those ranges; FileDescriptorSet bytes written here: fields 1, 2, 12, 4 and 7 of
// FileDescriptorProto, 1, 2, 5 and 9 of DescriptorProto, 1, 3, 4, 5 and 2 of FieldDescriptorProto)
const bytes = (...parts) => Uint8Array.from(parts.flat());
const varint = (v) => { const out = []; for (; v >= 0x80; v = Math.floor(v / 128)) out.push((v & 0x7f) | 0x80); out.push(v); return out; };
const text = (s) => [...new TextEncoder().encode(s)];
const field = (number, payload) => [...varint((number << 3) | 2), ...varint(payload.length), ...payload];
const int = (number, v) => [...varint(number << 3), ...varint(v)];
const setOf = (count) => {
  const member = (tag, name, number, extendee) => field(tag, [...field(1, text(name)), ...int(3, number), ...int(4, 1), ...int(5, 5), ...(extendee ? field(2, text(extendee)) : [])]);
  const message = [...field(1, text("M"))];
  for (let i = 0; i < count; i++) {
    // (numbers 19000 to 19999 skipped: protobuf reserves them)
    message.push(...member(2, `f${i}`, i < 18999 ? i + 1 : i + 1001), ...field(9, [...int(1, 200000 + 2 * i), ...int(2, 200001 + 2 * i)]), ...field(5, [...int(1, 300000 + 2 * i), ...int(2, 300001 + 2 * i)]));
  }
  const file = [...field(1, text("a.proto")), ...field(2, text("p")), ...field(12, text("proto2")), ...field(4, message)];
  for (let i = 0; i < count; i++) file.push(...member(7, `x${i}`, 300000 + 2 * i, ".p.M"));
  return bytes(field(1, file));
};
const fromSet = (set) => schemaFromDescriptorSet(set);

// The text format's string literals (ts/text/parse.ts): one escape then a long run (read a character
// at a time, a second per MB), many adjacent literals (an array each), many \u escapes; timed as fromText
const textType = build('syntax = "proto3";\nmessage T { bytes b = 1; string s = 2; }\n').types.get("T");
const textShapes = [
  ["text: one escape, then a long run", (count) => `b: "\\n${"x".repeat(count * 200)}"`],
  ["text: adjacent empty literals", (count) => `b: ${'"" '.repeat(count * 100)}`],
  ["text: \\u escapes", (count) => `s: "${"\\u00e9".repeat(count * 40)}"`],
].map(([name, make]) => [name, make, (t) => fromText(textType, t)]);

let failed = false;
console.log("scaling from N to 4N, N grown until a build takes 100 ms (linear: about 4x the time; quadratic: 16x)");
// (the descriptor set from 8,000 of each: below that the quadratic part would hide in the rest)
for (const [name, make, load, from = n] of [...Object.entries(shapes), ["descriptor set: fields and extensions in many ranges", setOf, fromSet, 8000], ...textShapes]) {
  let count = from;
  while (timeOf(make(count), load) < 100 && count < 64 * n) count *= 2;
  const small = make(count), large = make(4 * count);
  const ratio = timeOf(large, load) / timeOf(small, load);
  const ok = ratio < 7;
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${(small.length / 1024).toFixed(0)} KB -> ${(large.length / 1024).toFixed(0)} KB, ${ratio.toFixed(1)}x the time`);
}

// Dropped schemas: each ~100 KB of source, built, used (its tables go to WASM) and dropped. WASM
// memory never shrinks: a first round sets its high-water mark, a second must stay under it.
const wasmMemory = () => runtime().exports.memory.buffer.byteLength;
let collected = 0;
const tracked = new FinalizationRegistry(() => collected++);
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10)); // finalizers run between tasks
    gc();
  }
};
const heapAfter = async (count) => {
  for (let i = 0; i < count; i++) {
    const { types } = build(`${shapes["int64 defaults"](2000)}// schema ${i}\n`);
    const M0 = types.get("M0");
    if (M0.decode(M0.encode({ f1: 5n })).f1 !== 5n || M0.view(new Uint8Array(0)).f0 !== 9007199254740993n) throw new Error("a schema does not work");
    toJsonString(M0, M0.decode(new Uint8Array(0)));
    tracked.register(M0, i);
    if (i % 10 === 9) await settle();
  }
  await settle();
  return process.memoryUsage().heapUsed;
};
const schemas = 100;
const warm = await heapAfter(schemas);
const wasmWarm = wasmMemory();
const grown = (await heapAfter(schemas)) - warm;
const wasmGrown = wasmMemory() - wasmWarm;
const memoryOk = grown < 10 * 2 ** 20 && wasmGrown === 0 && collected >= 2 * schemas - 1;
failed ||= !memoryOk;
console.log(`${memoryOk ? "ok  " : "FAIL"} ${schemas} more dropped schemas of ~100 KB of source: JS heap ${(grown / 2 ** 20).toFixed(1)} MB more, WASM memory ${(wasmGrown / 2 ** 20).toFixed(1)} MB more; ${collected} of ${2 * schemas} collected`);

process.exit(failed ? 1 : 0);
