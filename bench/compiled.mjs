// `npm run bench:compiled`: the schema compiled into its own decoder (codegen/wasm/decoder.ts,
// issue 39) against the table-driven decoder and, for the tick, the decoder written by hand
// (bench/wasm/tick.hpp). All three are in one memory: the codec is built with the hand-written
// decoder as one more export (bench/wasm/handwritten.cpp, the shipped module's flags), and the
// compiled module imports its memory. They decode the same input copy into the same arena, and
// must leave the arena byte-identical (records, arrays, pointers) before any is timed. Timing is
// inside WASM: a driver module (written with codegen/wasm/writer.ts) calls one decoder per frame,
// the same way for all three, resetting the arena's cursor before each. Rounds alternate the
// decoders; the report is the median of the rounds and their range.
// Usage: node bench/compiled.mjs [ROUNDS]
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { init } from "../dist/ts/index.js";
import { runtime } from "../dist/ts/runtime.js";
import { loadProtos } from "../dist/codegen/load.js";
import { describeFiles } from "../dist/codegen/describe.js";
import { buildModel, schemaSource } from "../dist/codegen/model.js";
import { defineSchema } from "../dist/ts/schema.js";
import { compileDecoders } from "../dist/codegen/wasm/decoder.js";
import { compiledImports } from "../dist/ts/compiled.js";
import { COMPILED_CORE } from "../dist/ts/compiledcore.js";
import { hostOf } from "../test/support/wirecheck.mjs";
import { Code, Module, Type } from "../dist/codegen/wasm/writer.js";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const out = join(bench, "gen", "compiled");
const rounds = Number(process.argv[2] ?? 11);
mkdirSync(out, { recursive: true });

// the codec with the hand-written tick decoder, built as CMakeLists.txt builds hppproto.wasm
const codecFile = join(out, "codec.wasm");
const flags = ["-O3", "-mbulk-memory", "-fno-exceptions", "-fno-rtti"];
execFileSync("em++", [
  "-std=c++20", ...flags, `-I${join(root, "cpp", "include")}`, join(root, "wasm", "exports.cpp"), join(bench, "wasm", "handwritten.cpp"),
  ...flags, "-sSTANDALONE_WASM", "--no-entry", "-sALLOW_MEMORY_GROWTH=1", "-sMAXIMUM_MEMORY=4GB", "-sMALLOC=emmalloc",
  "-sEXPORTED_FUNCTIONS=_malloc,_free", "-sBINARYEN_EXTRA_PASSES=--one-caller-inline-max-function-size=100", "-o", codecFile,
], { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, NODE_PATH: "/usr/share/nodejs" } });
await init({ wasm: readFileSync(codecFile) });
const rt = runtime();
const x = rt.exports;
const u32 = () => new Uint32Array(x.memory.buffer);
const u8 = () => new Uint8Array(x.memory.buffer);

// what the benchmark messages hold (bench/suite/content.ts)
const built = await esbuild.build({ entryPoints: [join(bench, "suite", "content.ts")], bundle: true, format: "esm", write: false, logLevel: "warning" });
const content = await import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString("base64")}`);

function schemaOf(dir, file) {
  const loaded = loadProtos([join(dir, file)], [dir]);
  const model = buildModel(describeFiles(loaded));
  return { loaded, model, def: defineSchema(schemaSource(model).flat()) };
}

/** Message `index`'s compiled decoder (arena, data, size, reset) from a module, as the runtime instantiates it. */
const compiledDecoder = (bytes, def, index) => new WebAssembly.Instance(new WebAssembly.Module(bytes), compiledImports(hostOf(rt), { ...def, core: COMPILED_CORE })).exports[index];
const noReset = (decode) => (a, p, n) => decode(a, p, n, 0);
const compiledDriver = (decode) => driver(decode, [I32, I32, I32, I32], () => {}, (c) => c.i32(0));

/** The frames in memory, back to back, and a table of (address, length) pairs the driver walks. */
function stage(frames) {
  const total = frames.reduce((n, f) => n + f.length, 0);
  const data = rt.malloc(total + 8);
  const table = rt.malloc(frames.length * 8);
  let at = data;
  frames.forEach((f, i) => {
    u8().set(f, at);
    u32()[(table >> 2) + 2 * i] = at;
    u32()[(table >> 2) + 2 * i + 1] = f.length;
    at += f.length;
  });
  return { table, count: frames.length, bytes: total / frames.length };
}

const { I32 } = Type;
/**
 * A driver for one decoder: run(table, count, arena, blockStart) decodes every frame once, each into
 * the arena reset to blockStart; it traps if the decoder refuses one. `args` pushes the decoder's
 * arguments before (arena, data, size) and `after` those after them.
 */
function driver(decode, params, args = () => {}, after = () => {}) {
  const m = new Module();
  m.importMemory("bench", "memory", 0);
  const fn = m.importFunction("bench", "decode", params, [I32]);
  const TABLE = 0, COUNT = 1, ARENA = 2, START = 3, I = 4;
  const c = new Code();
  const done = c.block();
  const next = c.loop();
  c.get(I).get(COUNT).op("i32.ge_u").br_if(done);
  c.get(ARENA).get(START).store("i32", 0);
  args(c);
  c.get(ARENA).get(TABLE).get(I).i32(3).op("i32.shl", "i32.add").load("i32").get(TABLE).get(I).i32(3).op("i32.shl", "i32.add").load("i32", 4);
  after(c);
  c.call(fn).op("i32.eqz");
  c.if_();
  c.op("unreachable").end();
  c.get(I).i32(1).op("i32.add").set(I).br(next);
  c.end().end();
  m.export("run", "func", m.func([I32, I32, I32, I32], [], [I32], c));
  return new WebAssembly.Instance(new WebAssembly.Module(m.bytes()), { bench: { memory: x.memory, decode } }).exports.run;
}

const arena = x.hp_arena_new(0xffffffff, 1 << 20);
x.hp_arena_alloc(arena, 8); // its one block, 1 MiB (a decode's first block is only what its budget allows)
/** Where the arena's block starts. */
function blockStart() {
  return u32()[(arena + 8) >> 2] + 8;
}

/** Every decoder's arena after each frame, byte for byte, with 0xa5 where nothing was written. */
function checkIdentical(frames, decoders) {
  for (let i = 0; i < frames.count; i++) {
    const [at, size] = [u32()[(frames.table >> 2) + 2 * i], u32()[(frames.table >> 2) + 2 * i + 1]];
    let first;
    for (const [name, decode] of decoders) {
      const start = blockStart();
      u8().fill(0xa5, start, start + 65536);
      u32()[arena >> 2] = start;
      const rec = decode(arena, at, size);
      if (rec === 0) throw new Error(`${name} refused frame ${i}`);
      const bytes = Buffer.from(u8().slice(start, u32()[arena >> 2]));
      if (first === undefined) first = { rec, bytes, name };
      else if (rec !== first.rec || !bytes.equals(first.bytes)) throw new Error(`${name} and ${first.name} built different records for frame ${i}`);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** ns per message of each driver: `rounds` rounds, the decoders' order rotating each round. */
function time(frames, drivers) {
  const results = new Map(drivers.map(([name]) => [name, []]));
  const start = blockStart();
  const pass = (run) => run(frames.table, frames.count, arena, start);
  const reps = new Map();
  for (const [name, run] of drivers) {
    for (let i = 0; i < 20; i++) pass(run); // warm up: the engine's optimizing tier
    let n = 1;
    for (let t0 = performance.now(); performance.now() - t0 < 20; n++) pass(run);
    reps.set(name, Math.max(1, n * 5)); // about 100 ms a measurement
  }
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < drivers.length; k++) {
      const [name, run] = drivers[(k + r) % drivers.length];
      const n = reps.get(name);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) pass(run);
      results.get(name).push(((performance.now() - t0) * 1e6) / (n * frames.count));
    }
  }
  return results;
}

/** Times and, per round, the ratio to the reference measured in the same round: medians and ranges. */
function report(title, frames, results, reference) {
  console.log(`\n${title}: ${frames.count} frames of ${frames.bytes.toFixed(0)} bytes; ns per message and ratio to ${reference} (per round), median of ${rounds} rounds [range]`);
  const ref = results.get(reference);
  const range = (xs, digits) => `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]`;
  for (const [name, ns] of results) {
    console.log(`  ${name.padEnd(14)} ${range(ns, 1).padEnd(22)} ns  ${range(ns.map((v, i) => v / ref[i]), 2)}x`);
  }
}

function sizes(name, bytes) {
  return `${name}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzip`;
}

// ---- the tick stream ----
const tick = schemaOf(join(bench, "protos"), "tick.proto");
const tickType = tick.loaded.root.lookupType("bench.tick.Tick");
const tickFrames = stage(Array.from({ length: 10_000 }, (_, i) => tickType.encode(tickType.fromObject(content.tick(i, String))).finish()));
const tickIndex = tick.model.messages.findIndex((m) => m.fullName === "bench.tick.Tick");
const tickSchema = rt.schema(tick.def);
const tickWasm = compileDecoders(tick.model.messages);
const tickCompiled = compiledDecoder(tickWasm, tick.def, tickIndex);
const generic = (schema, index) => (a, p, n) => x.hp_decode(schema, index, a, p, n, 0);
checkIdentical(tickFrames, [["table-driven", generic(tickSchema, tickIndex)], ["hand-written", x.bench_tick_decode], ["compiled", noReset(tickCompiled)]]);
const genericDriver = (schema, index) =>
  driver(x.hp_decode, [I32, I32, I32, I32, I32, I32], (c) => c.i32(schema).i32(index), (c) => c.i32(0));
report("bench.tick.Tick", tickFrames, time(tickFrames, [
  ["table-driven", genericDriver(tickSchema, tickIndex)],
  ["hand-written", driver(x.bench_tick_decode, [I32, I32, I32])],
  ["compiled", compiledDriver(tickCompiled)],
]), "hand-written");

// ---- GoogleMessage1 (proto3) ----
const gm1 = schemaOf(join(root, "testdata", "protos"), "benchmark_messages_proto3.proto");
const gm1Type = gm1.loaded.root.lookupType("benchmarks.proto3.GoogleMessage1");
const gm1Frames = stage(Array.from({ length: 1000 }, () => gm1Type.encode(gm1Type.fromObject(content.gm1(content.gm1Strings, String))).finish()));
const gm1Index = gm1.model.messages.findIndex((m) => m.fullName === "benchmarks.proto3.GoogleMessage1");
const gm1Schema = rt.schema(gm1.def);
const gm1Wasm = compileDecoders(gm1.model.messages);
const gm1Compiled = compiledDecoder(gm1Wasm, gm1.def, gm1Index);
checkIdentical(gm1Frames, [["table-driven", generic(gm1Schema, gm1Index)], ["compiled", noReset(gm1Compiled)]]);
report("benchmarks.proto3.GoogleMessage1", gm1Frames, time(gm1Frames, [
  ["table-driven", genericDriver(gm1Schema, gm1Index)],
  ["compiled", compiledDriver(gm1Compiled)],
]), "table-driven");

// ---- module sizes ----
console.log("\nmodule sizes (gzip -9):");
console.log(`  ${sizes("generic decode-only codec (wasm/dist/hppproto-decode.wasm)", readFileSync(join(root, "wasm", "dist", "hppproto-decode.wasm")))}`);
console.log(`  ${sizes("compiled tick.proto", tickWasm)}`);
console.log(`  ${sizes("compiled benchmark_messages_proto3.proto", gm1Wasm)}`);
const protobufjsProtos = dirname(fileURLToPath(import.meta.resolve("protobufjs/package.json")));
console.log(`  ${sizes("compiled google/protobuf/descriptor.proto", compileDecoders(schemaOf(protobufjsProtos, "google/protobuf/descriptor.proto").model.messages))}`);
const conformance = join(root, "testdata", "protos", "conformance");
console.log(`  ${sizes("compiled test_messages_proto3.proto", compileDecoders(schemaOf(conformance, "google/protobuf/test_messages_proto3.proto").model.messages))}`);
