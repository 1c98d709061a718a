// Soak test: the 10,000-tick stream (bench/protos/tick.proto) decoded and encoded over and over,
// every way the runtime offers (views on a reused arena, plain objects, a stream reader fed in
// chunks, builders, the streaming writer), with every result checked. After a warm-up, linear
// memory must not grow, the arena must stay at its size, and the JS heap must stay flat.
// Usage: node --expose-gc fuzz/soak.mjs [SECONDS]   (after npm run build; default 60)
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { Arena, DelimitedReader, init, builder } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { generate } from "../dist/codegen/cli.js";

const seconds = Number(process.argv[2] ?? 60);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "build/soak");
mkdirSync(out, { recursive: true });
generate({ files: [path.join(root, "bench/protos/tick.proto")], out: path.join(out, "gen"), protoPaths: [path.join(root, "bench/protos")], runtimeImport: "hppproto/generated" });
await build({
  entryPoints: [path.join(out, "gen/tick_pb.ts")], bundle: true, format: "esm", platform: "node",
  external: ["hppproto"], outfile: path.join(out, "tick.mjs"), logLevel: "error",
});
const { Tick, Side } = await import(pathToFileURL(path.join(out, "tick.mjs")).href);
await init();
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

const COUNT = 10_000;
const tick = (i) => {
  const level = (k) => ({ price: 100 + i / 100 + k / 8, quantity: 10 * (k + 1) + (i % 7) });
  return {
    symbol: ["BTC-USD", "ETH-USD", "SOL-USD", "EUR-USD"][i % 4], price: 100 + i / 100, quantity: i % 1000,
    side: i % 2 ? Side.SIDE_BUY : Side.SIDE_SELL, timestampNs: 1_700_000_000_000_000_000n + BigInt(i) * 1000n,
    bids: [0, 1, 2].map(level), asks: [3, 4, 5].map(level),
  };
};
const ticks = Array.from({ length: COUNT }, (_, i) => tick(i));
const stream = Tick.encodeDelimited(ticks);
const same = (a, b) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
const fail = (what) => {
  console.error(`soak: ${what}`);
  process.exit(1);
};

const arena = new Arena();
const tickBuilder = builder(Tick);
const reader = new DelimitedReader(Tick);

/** One round: every path over the whole stream, every result checked against the source ticks. */
function round(r) {
  arena.reset();
  const views = Tick.viewDelimited(stream, arena);
  let sum = 0;
  for (let i = 0; i < COUNT; i++) {
    const v = views[i];
    if (v.symbol !== ticks[i].symbol || v.timestampNs !== ticks[i].timestampNs || v.asks.length !== 3) fail(`view ${i} reads wrong values`);
    sum += v.price + v.bids.get(2).price;
  }
  if (!same(Tick.encodeDelimited(views), stream)) fail("views encode differently");
  const plain = Tick.decodeDelimited(stream);
  if (!same(Tick.encodeDelimited(plain), stream)) fail("plain objects encode differently");
  // the stream in chunks of a size that changes every round
  const chunk = 1000 + (r % 17) * 613;
  let seen = 0;
  for (let at = 0; at < stream.length; at += chunk) {
    for (const v of reader.pushViews(stream.subarray(at, at + chunk))) {
      if (v.quantity !== ticks[seen].quantity) fail(`stream message ${seen} reads wrong values`);
      seen++;
    }
  }
  if (seen !== COUNT) fail(`the stream reader gave ${seen} messages`);
  // a builder, cleared and refilled
  const i = r % COUNT;
  tickBuilder.$clear();
  tickBuilder.symbol = ticks[i].symbol;
  tickBuilder.price = ticks[i].price;
  tickBuilder.quantity = ticks[i].quantity;
  tickBuilder.side = ticks[i].side;
  tickBuilder.timestampNs = ticks[i].timestampNs;
  for (const b of ticks[i].bids) tickBuilder.addBids().price = b.price;
  if (Tick.decode(Tick.encode(tickBuilder)).bids.length !== 3) fail("builder output");
  return sum;
}

const sample = () => {
  globalThis.gc();
  return { memory: runtime().mem.buffer.byteLength, arena: arena.reservedBytes, heap: process.memoryUsage().heapUsed };
};
const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
const deadline = Date.now() + seconds * 1000;
const warmUp = Date.now() + Math.min(10, seconds / 4) * 1000;
let rounds = 0;
let baseline;
let peakHeap = 0;
console.log(`soak: ${COUNT.toLocaleString("en")} ticks (${stream.length.toLocaleString("en")} bytes) per round for ${seconds} s`);
let nextReport = Date.now();
while (Date.now() < deadline) {
  round(rounds++);
  if (baseline === undefined && Date.now() >= warmUp) baseline = sample();
  if (Date.now() >= nextReport) {
    const s = sample();
    if (baseline) peakHeap = Math.max(peakHeap, s.heap);
    console.log(`  ${String(rounds).padStart(5)} rounds  linear memory ${mb(s.memory)}  arena ${mb(s.arena)}  JS heap ${mb(s.heap)}`);
    nextReport = Date.now() + 5000;
  }
}
const end = sample();
console.log(`soak: ${rounds} rounds, ${(rounds * COUNT).toLocaleString("en")} messages each way`);
if (!baseline) fail("too short to get past the warm-up");
if (end.memory !== baseline.memory) fail(`linear memory grew from ${mb(baseline.memory)} to ${mb(end.memory)}`);
if (end.arena !== baseline.arena) fail(`the arena grew from ${mb(baseline.arena)} to ${mb(end.arena)}`);
// the heap moves with V8's caches; a leak of even a few bytes per message would add up to far more
const heapGrowth = Math.max(end.heap, peakHeap) - baseline.heap;
if (heapGrowth > 8 * 1048576) fail(`the JS heap grew by ${mb(heapGrowth)}`);
console.log(`soak: flat (linear memory ${mb(end.memory)}, arena ${mb(end.arena)}, JS heap ${mb(baseline.heap)} -> ${mb(end.heap)})`);
arena.release();
tickBuilder.$release();
