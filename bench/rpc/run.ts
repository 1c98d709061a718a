// The RPC benchmark's measurements (bench/rpc.mjs bundles and runs this).
import * as grpc from "@grpc/grpc-js";
import { init } from "hppproto";
import { grpcServe, grpcService } from "hppproto/grpc-js";
import { TickFeed } from "../gen/rpc/hppproto/tick_feed_pb.js";
import { TickFeedClient, TickFeedService } from "../gen/rpc/ts-proto/tick_feed.js";

/** The four functions grpc-js calls per message, of one method's definition. */
interface Codec {
  requestSerialize(v: unknown): Buffer;
  requestDeserialize(b: Buffer): unknown;
  responseSerialize(v: unknown): Buffer;
  responseDeserialize(b: Buffer): unknown;
}

const tick = (i: number) => {
  const price = 100 + (i % 1000) / 100;
  return {
    symbol: ["BTC-USD", "ETH-USD", "SOL-USD"][i % 3]!, price, quantity: 1 + (i % 50), side: 1 + (i % 2), timestampNs: 1_700_000_000_000_000_000n + BigInt(i),
    bids: [1, 2, 3, 4, 5].map((k) => ({ price: price - k / 100, quantity: 10 * k })),
    asks: [1, 2, 3, 4, 5].map((k) => ({ price: price + k / 100, quantity: 10 * k })),
  };
};
const STREAM = 10_000;
const ticks = Array.from({ length: STREAM }, (_, i) => tick(i));
const request = { symbol: "BTC-USD", count: STREAM };

/** ns per unary round trip's serialization: request out and in, response out and in. */
function unarySerialization(c: Codec, n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    c.requestDeserialize(c.requestSerialize(request));
    c.responseDeserialize(c.responseSerialize(ticks[i % STREAM]));
  }
  return Number(process.hrtime.bigint() - t0) / n;
}

/** ns per streamed message: the server serializes each tick, the client deserializes it. */
function streamSerialization(c: Codec): number {
  const frames = new Array<Buffer>(STREAM);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < STREAM; i++) frames[i] = c.responseSerialize(ticks[i]);
  for (let i = 0; i < STREAM; i++) c.responseDeserialize(frames[i]!);
  return Number(process.hrtime.bigint() - t0) / STREAM;
}

type Impl = { latest: grpc.handleUnaryCall<unknown, unknown>; subscribe: grpc.handleServerStreamingCall<{ count: number }, unknown> };
const implementation: Impl = {
  latest: (_call, done) => done(null, ticks[0]),
  subscribe(call) {
    let i = 0;
    const send = () => {
      while (i < call.request.count) if (!call.write(ticks[i++ % STREAM])) return void call.once("drain", send);
      call.end();
    };
    send();
  },
};

interface Library {
  name: string;
  definition: grpc.ServiceDefinition;
  codec: { latest: Codec; subscribe: Codec };
  /** What the server adds, when not (definition, implementation): hppproto's requests are decoded in the handler */
  served?: [grpc.ServiceDefinition, grpc.UntypedServiceImplementation];
}

/** End to end: ms for `n` sequential unary calls, and for one 10,000-tick stream. */
async function endToEnd(lib: Library, address: string, n: number): Promise<{ unaryUs: number; streamMs: number }> {
  const Client = grpc.makeGenericClientConstructor(lib.definition, "TickFeed");
  const client = new Client(address, grpc.credentials.createInsecure()) as unknown as {
    latest(r: unknown, done: (e: Error | null) => void): void; subscribe(r: unknown): grpc.ClientReadableStream<unknown>; close(): void;
  };
  const call = () => new Promise<void>((ok, fail) => client.latest(request, (e) => (e ? fail(e) : ok())));
  for (let i = 0; i < 50; i++) await call(); // connect and warm up
  let t0 = performance.now();
  for (let i = 0; i < n; i++) await call();
  const unaryUs = ((performance.now() - t0) * 1000) / n;
  t0 = performance.now();
  await new Promise<void>((ok, fail) => client.subscribe(request).on("data", () => {}).on("end", ok).on("error", fail));
  const streamMs = performance.now() - t0;
  client.close();
  return { unaryUs, streamMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function runRpc(rounds: number, log: (line: string) => void) {
  await init();
  const hpp = grpcService(TickFeed), hppViews = grpcService(TickFeed, { receive: "view" });
  const libraries: Library[] = [
    { name: "hppproto", definition: hpp, codec: hpp as unknown as Library["codec"], served: grpcServe(TickFeed, implementation as never) },
    { name: "hppproto (views)", definition: hppViews, codec: hppViews as unknown as Library["codec"], served: grpcServe(TickFeed, implementation as never, { receive: "view" }) },
    { name: "ts-proto", definition: TickFeedService as grpc.ServiceDefinition, codec: TickFeedService as unknown as Library["codec"] },
  ];
  void TickFeedClient; // the client ts-proto generates is makeGenericClientConstructor over the same definition
  const servers: grpc.Server[] = [];
  const addresses = new Map<string, string>();
  for (const lib of libraries) {
    const server = new grpc.Server();
    server.addService(...(lib.served ?? [lib.definition, implementation as unknown as grpc.UntypedServiceImplementation]));
    const port = await new Promise<number>((ok, fail) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : ok(p))));
    servers.push(server);
    addresses.set(lib.name, `127.0.0.1:${port}`);
  }
  const samples = new Map<string, { unaryNs: number[]; streamNs: number[]; unaryUs: number[]; streamMs: number[] }>();
  for (const lib of libraries) samples.set(lib.name, { unaryNs: [], streamNs: [], unaryUs: [], streamMs: [] });
  for (let round = 0; round < rounds; round++) {
    for (const lib of round % 2 ? [...libraries].reverse() : libraries) {
      const s = samples.get(lib.name)!;
      unarySerialization(lib.codec.latest, 2_000); // warm up
      streamSerialization(lib.codec.subscribe);
      s.unaryNs.push(unarySerialization(lib.codec.latest, 20_000));
      s.streamNs.push(streamSerialization(lib.codec.subscribe));
      const e = await endToEnd(lib, addresses.get(lib.name)!, 1_000);
      s.unaryUs.push(e.unaryUs);
      s.streamMs.push(e.streamMs);
    }
    log(`round ${round + 1}/${rounds} done`);
  }
  for (const server of servers) server.forceShutdown();
  // ratios within each round, against ts-proto: its time over hppproto's (above 1: hppproto faster)
  const base = samples.get("ts-proto")!;
  const rows = libraries.map((lib) => {
    const s = samples.get(lib.name)!;
    const ratio = (k: keyof typeof s) => s[k].map((v, i) => base[k][i]! / v);
    const stat = (k: keyof typeof s) => ({ median: median(s[k]), ratio: median(ratio(k)), range: [Math.min(...ratio(k)), Math.max(...ratio(k))] });
    return { library: lib.name, unarySerialization: stat("unaryNs"), streamSerialization: stat("streamNs"), unaryRoundTrip: stat("unaryUs"), stream10k: stat("streamMs") };
  });
  const f = (x: { median: number; ratio: number; range: number[] }, unit: string, digits = 0) =>
    `${x.median.toFixed(digits)} ${unit} ${x.ratio.toFixed(2)}× [${x.range.map((r) => r.toFixed(2)).join("–")}]`;
  log("| library | unary serialization | stream serialization per tick | unary round trip | 10,000-tick stream |");
  log("|---|---:|---:|---:|---:|");
  for (const r of rows) log(`| ${r.library} | ${f(r.unarySerialization, "ns")} | ${f(r.streamSerialization, "ns")} | ${f(r.unaryRoundTrip, "µs")} | ${f(r.stream10k, "ms")} |`);
  return { rounds, rows };
}
