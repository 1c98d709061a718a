// `npm run bench:allocations [-- --smoke]`: bytes of JS heap each encode path allocates per message
// in steady state, from V8's heap statistics (not timings). The young generation is made large
// enough that no collection runs inside a measurement, so the growth of the used heap over N calls
// is what they allocated. The paths the README calls allocation-free must stay under a byte per
// message (V8's own bookkeeping rounds in); this exits 1 otherwise.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import v8 from "node:v8";

const root = fileURLToPath(new URL("..", import.meta.url));
const smoke = process.argv.includes("--smoke");

if (!process.argv.includes("--child")) {
  // a child process with a young generation of a fixed 64 MiB (no scavenge inside a measurement) and gc() exposed
  const r = spawnSync(process.execPath, ["--expose-gc", "--min-semi-space-size=64", "--max-semi-space-size=64", fileURLToPath(import.meta.url), "--child", ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

const { generate } = await import(pathToFileURL(join(root, "dist/codegen/cli.js")).href);
const { init, Writer, builder } = await import(pathToFileURL(join(root, "dist/ts/index.js")).href);
const out = mkdtempSync(join(tmpdir(), "hppproto-alloc-"));
generate({ files: [join(root, "bench/protos/tick.proto")], out, protoPaths: [join(root, "bench/protos")], target: "js", runtimeImport: pathToFileURL(join(root, "dist/ts/generated.js")).href });
const { Tick } = await import(pathToFileURL(join(out, "tick_pb.js")).href);
await init();

const tick = {
  symbol: "EURUSD", price: 1.08345, quantity: 2500, side: 1, timestampNs: 1732300000123456789n,
  bids: [1, 2, 3].map((i) => ({ price: 1.0834 - i * 1e-5, quantity: 1000 * i })),
  asks: [1, 2, 3].map((i) => ({ price: 1.0835 + i * 1e-5, quantity: 1000 * i })),
};
const sizes = [1, 2, 3];
const target = new Uint8Array(4096);
const writer = new Writer();
const tickBuilder = builder(Tick);
tickBuilder.symbol = tick.symbol;
tickBuilder.price = tick.price;
tickBuilder.quantity = tick.quantity;
tickBuilder.side = tick.side;
tickBuilder.timestampNs = tick.timestampNs;
for (const l of tick.bids) Object.assign(tickBuilder.addBids(), l);
for (const l of tick.asks) Object.assign(tickBuilder.addAsks(), l);

// The caller's own allocations are kept out of the writer's rows: V8 passes a non-integral double
// to a call it does not inline as a fresh HeapNumber (16 bytes), and for-of makes an iterator. So
// the prices here are integral (in hundred-thousandths), which travel unboxed, and loops are indexed.
const bidPrices = tick.bids.map((l) => Math.round(l.price * 1e5));
const askPrices = tick.asks.map((l) => Math.round(l.price * 1e5));
const quantities = tick.bids.map((l) => l.quantity);

/** The same tick through the streaming writer: fields, nested levels with fork/join, a packed run. */
function writeTick(w) {
  w.reset().string(1, tick.symbol).double(2, bidPrices[0]).uint32(3, tick.quantity).enum(4, tick.side).int64(5, tick.timestampNs);
  for (let i = 0; i < bidPrices.length; i++) w.fork(6).double(1, bidPrices[i]).uint32(2, quantities[i]).join();
  for (let i = 0; i < askPrices.length; i++) w.fork(7).double(1, askPrices[i]).uint32(2, quantities[i]).join();
  w.packedInt32(8, sizes);
  return w;
}

/** The reused builder refilled: cleared, every field set, the levels added again. */
function fillBuilder(b) {
  b.$clear();
  b.symbol = tick.symbol;
  b.price = bidPrices[0];
  b.quantity = tick.quantity;
  b.side = tick.side;
  b.timestampNs = tick.timestampNs;
  for (let i = 0; i < bidPrices.length; i++) {
    const l = b.addBids();
    l.price = bidPrices[i];
    l.quantity = quantities[i];
  }
  for (let i = 0; i < askPrices.length; i++) {
    const l = b.addAsks();
    l.price = askPrices[i];
    l.quantity = quantities[i];
  }
  return Tick;
}

// [name, what it does per message, allocation-free?]
const paths = [
  ["Writer: reset, fields, fork/join, finishInto", () => writeTick(writer).finishInto(target), true],
  ["Writer: ... finish() (returns a view)", () => writeTick(writer).finish(), false],
  ["encodeInto(builder) (a reused builder)", () => Tick.encodeInto(tickBuilder, target), true],
  ["builder: $clear, set every field, add levels, encodeInto", () => fillBuilder(tickBuilder).encodeInto(tickBuilder, target), true],
  // V8 may box each double it reads from the object to pass it to a call it did not inline (16 bytes
  // each; the tick has 7): whether it inlines varies from process to process
  ["encodeInto(plain object)", () => Tick.encodeInto(tick, target), false],
  ["encode(builder) (returns a new Uint8Array)", () => Tick.encode(tickBuilder), false],
  ["encode(plain object) (returns a new Uint8Array)", () => Tick.encode(tick), false],
];

const n = smoke ? 2_000 : 40_000;
let sink; // every result is kept, so that the optimizing compiler cannot leave out an allocation
let failed = false;
console.log(`bytes allocated per message (JS heap, after a warm-up), Node ${process.version}`);
for (const [name, run, free] of paths) {
  for (let i = 0; i < 20_000; i++) sink = run(); // optimized, feedback settled
  // the growth over n messages and over 4n: their difference is what the messages allocated, without
  // what a measurement costs whatever its length (the runtime's own bookkeeping, about 100 KB)
  const grown = (count) => {
    globalThis.gc();
    const before = v8.getHeapStatistics().used_heap_size;
    for (let i = 0; i < count; i++) sink = run();
    return v8.getHeapStatistics().used_heap_size - before;
  };
  const samples = [];
  for (let round = 0; round < 3; round++) samples.push(Math.max(0, (grown(4 * n) - grown(n)) / (3 * n)));
  const perMessage = Math.min(...samples); // a round a stray allocation elsewhere lands in is not the path's
  const bad = free && perMessage >= 1;
  failed ||= bad;
  console.log(`${bad ? "FAIL " : ""}${name.padEnd(58)} ${perMessage.toFixed(1).padStart(7)} B${free ? "  (allocation-free)" : ""}`);
}
rmSync(out, { recursive: true, force: true });
void sink;
if (failed) {
  console.log("a path the README calls allocation-free allocated");
  process.exit(1);
}
