// The benchmark suite: datasets, the operations each library runs on them, and one tinybench run
// per dataset. The same bundle runs in Node (bench/run.mjs) and in Chromium (bench/browser.mjs).
import { Bench } from "tinybench";
import { init } from "hppproto";
import { arrayLength, doubles, gm1, gm1BigStrings, gm1Strings, int32s, protoNames, tick, tile, traces, uint64s, type Int64 } from "./content.js";
import { codec, descOf, libraries, type Codec, type Library, type MessageName } from "./libraries.js";
import { makeReader, sink } from "./readers.js";

export interface Row {
  dataset: string;
  operation: string;
  library: Library | "floor";
  /** operations per second; one operation is one message, one whole array, or the whole stream */
  hz: number;
  mean_ns: number;
  p99_ns: number;
  samples: number;
  /** messages per operation (the stream's 10,000; else 1) */
  items: number;
  /** payload bytes per operation */
  bytes: number;
  /** each run's mean time when several runs were combined (combineRuns); mean_ns is their median */
  runs_ns?: number[];
}

interface Task {
  operation: string;
  library: Library | "floor";
  fn: () => unknown;
}

interface Dataset {
  name: string;
  items: number;
  /** The tasks of every library, or of one (and the floor measurements with hppproto's). */
  setup(only?: Library): { bytes: number; tasks: Task[] };
}

/** The libraries a setup makes tasks for. */
const selected = (only?: Library) => libraries.filter((lib) => only === undefined || lib === only);

const reference: Library = "protobuf-es";

/** Before timing anything, check that the library decodes what protobuf-es decodes. Numbers are
 * compared through Number() (which reads bigint and protobufjs's Long alike) to within pbf's
 * precision: it reads 64-bit integers as doubles. */
function verify(dataset: string, lib: Library, got: unknown[], want: unknown[]) {
  const same = (a: unknown, b: unknown) =>
    typeof a === "string" || typeof b === "string" ? a === b : Math.abs(Number(a) - Number(b)) <= Math.abs(Number(b)) * 1e-15;
  if (got.length !== want.length || !got.every((g, i) => same(g, want[i])))
    throw new Error(`${dataset}: ${lib} decodes ${got.map(String)} where protobuf-es decodes ${want.map(String)}`);
}

/**
 * One message, decoded, read and encoded whole: GoogleMessage1 (a couple of hundred bytes, or a
 * few KB with big strings), a map tile, traces. `probe` picks values every library must agree on.
 */
function messageDataset(name: string, message: MessageName, content: (int64: Int64) => any, probe: (m: any) => unknown[]): Dataset {
  return {
    name, items: 1,
    setup(only) {
      const es = codec(reference, message);
      const bytes = es.encode!(es.build!(content(es.int64)));
      const tasks: Task[] = [];
      for (const lib of selected(only)) {
        const c = codec(lib, message);
        const read = makeReader(descOf(message), c);
        verify(name, lib, probe(c.view ? c.view(bytes) : c.decode(bytes)), probe(es.decode(bytes)));
        if (c.view) {
          const view = c.view;
          tasks.push({ operation: "view", library: lib, fn: () => view(bytes) });
          tasks.push({ operation: "view+read", library: lib, fn: () => read(view(bytes), sink) });
        }
        const readPlain = c.view ? makeReader(descOf(message), { ...c, listAt: plainListAt }) : read;
        tasks.push({ operation: "decode+read", library: lib, fn: () => readPlain(c.decode(bytes), sink) });
        tasks.push({ operation: "decode", library: lib, fn: () => c.decode(bytes) });
        if (c.decodeFunction) {
          const decode = c.decodeFunction;
          tasks.push({ operation: "decodeX", library: lib, fn: () => decode(bytes) });
        }
        tasks.push(...writeTasks(c, lib, bytes, () => literalFor(c, content)));
      }
      return { bytes: bytes.length, tasks };
    },
  };
}

/** The content in the library's integer type and field names. */
const literalFor = (c: Codec, content: (int64: Int64) => any) => {
  const literal = content(c.int64);
  return c.naming === "proto" ? protoNames(literal) : literal;
};

const gm1Probe = (m: any) => [m.field3, m.field9.length, m.field15.field15.length, m.field15.field22, m.field81];
/** An element of a list: ListView.get() for hppproto's views, indexing for arrays. */
const at = (list: any, i: number) => (typeof list.get === "function" ? list.get(i) : list[i]);
const tileProbe = (m: any) => {
  const layer = at(m.layers, 1), feature = at(layer.features, 7);
  return [m.layers.length, layer.name, at(layer.keys, 2), layer.features.length, feature.id, feature.geometry.length, feature.geometry[3], feature.tags[5]];
};
const tracesProbe = (m: any) => {
  const rs = at(m.resourceSpans ?? m.resource_spans, 0), ss = at(rs.scopeSpans ?? rs.scope_spans, 1), span = at(ss.spans, 42);
  const attr = at(span.attributes, 1);
  return [ss.spans.length, span.name, span.startTimeUnixNano ?? span.start_time_unix_nano, attr.key, (attr.value.intValue ?? attr.value.int_value)];
};

/** A hand-driven encoder must produce what encode() produces for the same content. */
function checkEncoder(c: Codec, lib: Library, how: string, bytes: Uint8Array, built: unknown) {
  const want = c.encode!(built);
  if (bytes.length !== want.length || bytes.some((b, i) => b !== want[i])) {
    throw new Error(`${lib} ${how}: ${bytes.length} bytes differ from encode()'s ${want.length}`);
  }
}

function writeTasks(c: Codec, lib: Library, bytes: Uint8Array, literal: () => any): Task[] {
  const tasks: Task[] = [];
  const built = c.decode(bytes);
  if (c.encode) tasks.push({ operation: "encode", library: lib, fn: () => c.encode!(built) });
  if (c.encode && c.build) tasks.push({ operation: "set+encode", library: lib, fn: () => c.encode!(c.build!(literal())) });
  if (c.builderEncoder) {
    const encode = c.builderEncoder();
    checkEncoder(c, lib, "builder", encode(literal()), built);
    tasks.push({ operation: "builder set+encode", library: lib, fn: () => encode(literal()) });
  }
  if (c.writerEncoder) {
    const encode = c.writerEncoder();
    checkEncoder(c, lib, "writer", encode(literal()), built);
    tasks.push({ operation: "writer set+encode", library: lib, fn: () => encode(literal()) });
  }
  if (c.toJson && c.fromJson) {
    const json = c.toJson(built);
    tasks.push({ operation: "json out", library: lib, fn: () => c.toJson!(built) });
    tasks.push({ operation: "json in", library: lib, fn: () => c.fromJson!(json) });
    if (c.encode) {
      const toBinary = c.jsonToBinary ?? ((s: string) => c.encode!(c.fromJson!(s)));
      if (c.jsonToBinary) checkEncoder(c, lib, "JSON to binary", toBinary(json), built);
      tasks.push({ operation: "json to binary", library: lib, fn: () => toBinary(json) });
    }
    const toJson = c.binaryToJson ?? ((b: Uint8Array) => c.toJson!(c.decode(b)));
    // the same JSON value, whatever the order of keys
    const canonical = (text: string) => JSON.stringify(JSON.parse(text), (_, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));
    if (c.binaryToJson && canonical(toJson(bytes)) !== canonical(json)) {
      throw new Error(`${lib} binary to JSON: the text differs from toJson()'s`);
    }
    tasks.push({ operation: "binary to json", library: lib, fn: () => toJson(bytes) });
  }
  return tasks;
}

/** A packed array of 1,000,000 numbers in one message. */
function arrayDataset(name: string, message: "doubles" | "int32s" | "uint64s", values: () => ArrayLike<number | bigint>): Dataset {
  return {
    name, items: 1,
    setup(only) {
      const es = codec(reference, message);
      const bytes = es.encode!(es.build!({ values: Array.from(values()) }));
      const floor = new Uint8Array(bytes.length);
      const tasks: Task[] = only === undefined || only === "hppproto" ? [{ operation: "memcpy", library: "floor", fn: () => floor.set(bytes) }] : [];
      for (const lib of selected(only)) {
        const c = codec(lib, message);
        const sum = summer(c.decode(bytes).values[0]);
        const probe = (a: ArrayLike<unknown>) => [a.length, a[1], a[arrayLength - 1]];
        verify(name, lib, probe((c.view ? c.view(bytes) : c.decode(bytes)).values), probe(es.decode(bytes).values));
        if (c.view) {
          const view = c.view;
          tasks.push({ operation: "view", library: lib, fn: () => view(bytes).values });
          tasks.push({ operation: "view+sum", library: lib, fn: () => sum(view(bytes).values) });
        } else {
          tasks.push({ operation: "decode+sum", library: lib, fn: () => sum(c.decode(bytes).values) });
        }
        tasks.push({ operation: "decode", library: lib, fn: () => c.decode(bytes) });
        const built = c.decode(bytes);
        if (c.encode) tasks.push({ operation: "encode", library: lib, fn: () => c.encode!(built) });
      }
      return { bytes: bytes.length, tasks };
    },
  };
}

/** A summing loop compiled for one library's element type (number, bigint or protobufjs's Long). */
function summer(sample: unknown): (a: ArrayLike<any>) => number | bigint {
  const add = typeof sample === "bigint" ? "s += a[i];" : typeof sample === "object" ? "s += a[i].toNumber();" : "s += a[i];";
  return new Function("a", `let s = ${typeof sample === "bigint" ? "0n" : "0"}; for (let i = 0; i < a.length; i++) ${add} return s;`) as any;
}

/** Plain objects hold every repeated field as an array. */
const plainListAt = (list: string, i: string) => `${list}[${i}]`;

const streamLength = 10_000;

/** 10,000 market-data ticks: one per WebSocket frame, or all in one length-delimited buffer. */
const stream: Dataset = {
  name: "tick-stream", items: streamLength,
  setup(only) {
    const es = codec(reference, "tick");
    const frames = Array.from({ length: streamLength }, (_, i) => es.encode!(es.build!(tick(i, es.int64))).slice());
    const batch = delimit(frames);
    const tasks: Task[] = [];
    for (const lib of selected(only)) {
      const c = codec(lib, "tick");
      const read = makeReader(descOf("tick"), c);
      const probe = (m: any) => [m.symbol, m.price, m.timestampNs ?? m.timestamp_ns, m.asks.length];
      let last: unknown[] = [];
      c.delimited(batch, (m) => (last = probe(m)));
      verify("tick-stream", lib, last, probe(es.decode(frames[streamLength - 1]!)));
      const readPlain = c.view ? makeReader(descOf("tick"), { ...c, listAt: plainListAt }) : read;
      const plainBatch = c.decodeDelimited ?? ((b: Uint8Array, each: (m: any) => void) => c.delimited(b, each));
      if (c.view) {
        const view = c.view;
        tasks.push({ operation: "frames view+read", library: lib, fn: () => { for (const f of frames) read(view(f), sink); } });
      }
      tasks.push({ operation: "frames decode+read", library: lib, fn: () => { for (const f of frames) readPlain(c.decode(f), sink); } });
      tasks.push({ operation: "frames decode", library: lib, fn: () => { for (const f of frames) c.decode(f); } });
      if (c.decodeFunction) {
        const decode = c.decodeFunction;
        tasks.push({ operation: "frames decodeX", library: lib, fn: () => { for (const f of frames) decode(f); } });
      }
      tasks.push(...tickWriteTasks(c, lib, frames));
      // Batches last: a batch API that returned all 10,000 objects at once (hppproto's
      // decodeDelimited()) would keep them alive past scavenges, and V8 would then pretenure their
      // allocation sites (the generated readers', shared with decode()) for the rest of the process.
      // Every library here hands out one message at a time (hppproto: forEachDelimited()), but the
      // order keeps one library's batch from ever changing how its per-frame rows are measured.
      if (c.view) tasks.push({ operation: "batch view+read", library: lib, fn: () => c.delimited(batch, (m) => read(m, sink)) });
      tasks.push({ operation: "batch decode+read", library: lib, fn: () => plainBatch(batch, (m) => readPlain(m, sink)) });
    }
    return { bytes: batch.length, tasks };
  },
};

/** Encoding the stream, one message per frame: from prebuilt messages, and set from content + encode. */
function tickWriteTasks(c: Codec, lib: Library, frames: Uint8Array[]): Task[] {
  if (!c.encode) return [];
  const literals = frames.map((_, i) => literalFor(c, (int64) => tick(i, int64)));
  // Built from the content, not decoded: 10,000 retained decode results would make V8 pretenure
  // the decoder's allocation sites (see the batches above) before any decode is measured.
  const built = c.build ? literals.map((l) => c.build!(l)) : frames.map((f) => c.decode(f));
  const tasks: Task[] = [{ operation: "frames encode", library: lib, fn: () => { for (const m of built) c.encode!(m); } }];
  if (c.build) tasks.push({ operation: "frames set+encode", library: lib, fn: () => { for (const l of literals) c.encode!(c.build!(l)); } });
  for (const [how, make] of [["builder", c.builderEncoder], ["writer", c.writerEncoder]] as const) {
    if (!make) continue;
    const encode = make.call(c);
    checkEncoder(c, lib, how, encode(literals[1]), built[1]);
    tasks.push({ operation: `frames ${how} set+encode`, library: lib, fn: () => { for (const l of literals) encode(l); } });
  }
  return tasks;
}

function delimit(frames: Uint8Array[]): Uint8Array {
  const out: number[] = [];
  for (const f of frames) {
    for (let n = f.length; ; n >>>= 7) {
      if (n < 0x80) { out.push(n); break; }
      out.push((n & 0x7f) | 0x80);
    }
    for (const b of f) out.push(b);
  }
  return Uint8Array.from(out);
}

export const datasets: Dataset[] = [
  messageDataset("gm1-proto2", "gm1p2", (int64) => gm1(gm1Strings, int64), gm1Probe),
  messageDataset("gm1-proto3", "gm1p3", (int64) => gm1(gm1Strings, int64), gm1Probe),
  messageDataset("gm1-big", "gm1p3", (int64) => gm1(gm1BigStrings, int64), gm1Probe),
  messageDataset("map-tile", "tile", tile, tileProbe),
  messageDataset("traces", "traces", traces, tracesProbe),
  arrayDataset("packed-double", "doubles", doubles),
  arrayDataset("packed-int32", "int32s", int32s),
  arrayDataset("packed-uint64", "uint64s", uint64s),
  stream,
];

export interface RunOptions {
  /** where the WASM module is, or its bytes */
  wasm?: URL | string | BufferSource;
  /** a few iterations only: shows the suite works, measures nothing */
  smoke?: boolean;
  /** one library's tasks only (Node runs each library in a process of its own) */
  library?: Library;
  /** these operations only (for profiling one of them) */
  operations?: readonly string[];
  log?: (line: string) => void;
}

export async function runDataset(name: string, options: RunOptions = {}): Promise<Row[]> {
  const dataset = datasets.find((d) => d.name === name);
  if (!dataset) throw new Error(`no dataset ${name}; there are ${datasets.map((d) => d.name).join(", ")}`);
  await init(options.wasm === undefined ? {} : { wasm: options.wasm });
  const { bytes, tasks } = dataset.setup(options.library);
  const bench = options.smoke
    ? new Bench({ time: 0, iterations: 2, warmup: false })
    : new Bench({ time: 800, iterations: 10, warmupTime: 200, warmupIterations: 3 });
  const reps = new Map<string, number>();
  for (const t of tasks) {
    if (options.operations !== undefined && !options.operations.includes(t.operation)) continue;
    const fn = t.fn;
    const name = `${t.operation}|${t.library}`;
    const n = options.smoke ? 1 : calls(fn);
    reps.set(name, n);
    bench.add(name, n === 1 ? fn : () => { for (let i = 0; i < n; i++) fn(); });
  }
  const rows: Row[] = [];
  bench.addEventListener("cycle", (event) => {
    const task = event.task!;
    const r = task.result;
    if (r.state !== "completed") throw new Error(`${name} ${task.name}: ${r.state === "errored" ? r.error.stack : r.state}`);
    const [operation, library] = task.name.split("|") as [string, Row["library"]];
    const n = reps.get(task.name)!;
    const mean = (r.latency.mean * 1e6) / n;
    rows.push({
      dataset: name, operation, library,
      hz: 1e9 / mean, mean_ns: mean, p99_ns: (r.latency.p99 * 1e6) / n, samples: r.latency.samplesCount,
      items: dataset.items, bytes,
    });
    options.log?.(`${name.padEnd(14)} ${operation.padEnd(20)} ${library.padEnd(12)} ${fmt(mean).padStart(12)}`);
  });
  await bench.run();
  return rows;
}

/** How many calls make one sample of at least 2 ms, so that timer resolution (5 µs or coarser in
 * browsers) stays far below what is measured; results are divided back to one call. */
function calls(fn: () => unknown): number {
  for (let i = 0; i < 5; i++) fn();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 2) {
    fn();
    n++;
  }
  return n;
}

function fmt(ns: number): string {
  return ns < 1e3 ? `${ns.toFixed(0)} ns` : ns < 1e6 ? `${(ns / 1e3).toFixed(2)} µs` : `${(ns / 1e6).toFixed(2)} ms`;
}

export { markdown, html, chart } from "./render.js";
export { combineRuns } from "./runs.js";
export { libraries };
