// The RPC adapters against the real libraries over 127.0.0.1: a grpc-js server and client
// (hppproto/grpc-js), nice-grpc's (hppproto/nice-grpc) and a Connect-ES server (hppproto/connect),
// each kind of method, errors, metadata, cancellation, views on receipt (a server's belong to the
// call, whatever other clients send), and requests the codec rejects.
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { Code, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createChannel, createClient, createServer, Metadata as NiceMetadata, ServerError, Status, type CallContext } from "nice-grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Arena, DecodeError, getOption, init, MessageView, ServiceType, StaleViewError } from "hppproto";
import { connectService } from "hppproto/connect";
import { grpcClient, grpcServe, grpcService, type GrpcClient, type GrpcImplementation } from "hppproto/grpc-js";
import { niceGrpcServe, niceGrpcService } from "hppproto/nice-grpc";
import { decoder, VIEW_RING } from "../dist/ts/rpc/codec.js";
import { MalformedRequestError } from "../dist/ts/rpc/requests.js";
import { Subscribe, Summary, Tick, Ticker, type Subscribe as SubscribePlain, type Summary as SummaryPlain, type Tick as TickPlain } from "./gen/rpc/rpc_pb.js";
import { Object$, Prototype, Word as WordType, type Word } from "./gen/names/names_rpc_pb.js";
import { echoed, summarize, summarizer, tick } from "./support/ticker.js";

beforeAll(async () => {
  await init();
});


describe("the generated service", () => {
  it("lists each method with its path, message types, kind and idempotency", () => {
    expect(Ticker.typeName).toBe("rpc_test.Ticker");
    expect(Object.values(Ticker.methods).map((m) => [m.property, m.name, m.path, m.input, m.output, m.kind, m.idempotency])).toEqual([
      ["quote", "Quote", "/rpc_test.Ticker/Quote", Subscribe, Tick, "unary", "no_side_effects"],
      ["stream", "Stream", "/rpc_test.Ticker/Stream", Subscribe, Tick, "server_streaming", "unknown"],
      ["collect", "Collect", "/rpc_test.Ticker/Collect", Tick, Summary, "client_streaming", "unknown"],
      ["echo", "Echo", "/rpc_test.Ticker/Echo", Tick, Tick, "bidi_streaming", "unknown"],
    ]);
    expect(Ticker.methods.quote.service).toBe(Ticker);
  });
});

describe("views on receipt (the clients' decoder)", () => {
  it("a ring of arenas: 32 views valid at a time; an arena a large message grew is released, not kept", () => {
    const decode = decoder(Tick, "view");
    const release = vi.spyOn(Arena.prototype, "release");
    try {
      const big = decode(Tick.encode({ symbol: "BIG", payload: new Uint8Array(2 << 20) })) as unknown as TickPlain;
      expect(big.payload.length).toBe(2 << 20);
      const small = Array.from({ length: VIEW_RING }, (_, i) => decode(Tick.encode(tick(i))) as unknown as TickPlain);
      expect(() => big.symbol).toThrow(StaleViewError);
      expect(release).toHaveBeenCalledTimes(1); // the 2 MiB arena, when its turn came again
      expect(small.map((t) => t.seq)).toEqual(Array.from({ length: VIEW_RING }, (_, i) => BigInt(i)));
    } finally {
      release.mockRestore();
    }
  });
});

/** The Ticker service, implemented for grpc-js. */
const grpcImplementation: GrpcImplementation<typeof Ticker> = {
  quote(call, done) {
    const { symbol, failWith } = call.request;
    if (failWith !== 0) return done({ code: failWith, details: `no quote for ${symbol}` });
    const echoed = call.metadata.get("x-user")[0];
    const trailer = new grpc.Metadata();
    trailer.set("x-served-for", String(echoed ?? ""));
    done(null, tick(7, symbol), trailer);
  },
  stream(call) {
    const { symbol, count, failWith } = call.request;
    let seq = 0;
    const next = () => {
      while (seq < count && !call.cancelled) {
        if (failWith !== 0 && seq === 3) return void call.emit("error", { code: failWith, details: "feed broke" });
        if (!call.write(tick(seq++, symbol))) return void call.once("drain", next);
      }
      if (!call.cancelled) call.end();
    };
    next();
  },
  collect(call, done) {
    const s = summarizer();
    call.on("data", (t: TickPlain) => s.add(t));
    call.on("end", () => done(null, s.summary));
  },
  echo(call) {
    call.on("data", (t: TickPlain) => call.write(echoed(t)));
    call.on("end", () => call.end());
  },
};

async function listen(server: grpc.Server): Promise<string> {
  const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  return `127.0.0.1:${port}`;
}

const unary = <A>(call: (done: (e: grpc.ServiceError | null, v?: A) => void) => unknown) =>
  new Promise<A>((resolve, reject) => call((e, v) => (e ? reject(e) : resolve(v!))));

describe("hppproto/grpc-js: a grpc-js server and client", () => {
  const server = new grpc.Server();
  let address = "";
  let client: GrpcClient<typeof Ticker>;
  beforeAll(async () => {
    server.addService(...grpcServe(Ticker, grpcImplementation));
    address = await listen(server);
    client = grpcClient(Ticker, address, grpc.credentials.createInsecure());
  });
  afterAll(() => {
    client.close();
    server.forceShutdown();
  });

  it("unary: the request and response cross as plain objects, metadata both ways", async () => {
    const metadata = new grpc.Metadata();
    metadata.set("x-user", "ada");
    let trailer: grpc.Metadata | undefined;
    const reply = await unary<TickPlain>((done) => client.quote({ symbol: "XYZ" }, metadata, done).on("status", (s) => (trailer = s.metadata)));
    expect(reply).toEqual(tick(7, "XYZ"));
    await new Promise((r) => setTimeout(r, 10));
    expect(trailer?.get("x-served-for")).toEqual(["ada"]);
  });

  it("unary: an error status and its details reach the client; the server keeps serving", async () => {
    const error = await unary((done) => client.quote({ symbol: "NONE", failWith: grpc.status.NOT_FOUND }, done)).catch((e: grpc.ServiceError) => e);
    expect([error.code, error.details]).toEqual([grpc.status.NOT_FOUND, "no quote for NONE"]);
    expect(await unary<TickPlain>((done) => client.quote({ symbol: "OK" }, done))).toEqual(tick(7, "OK"));
  });

  it("server streaming: 10,000 messages in order", async () => {
    const got: bigint[] = [];
    await new Promise<void>((resolve, reject) => {
      const call = client.stream({ symbol: "S", count: 10_000 });
      call.on("data", (t: TickPlain) => got.push(t.seq));
      call.on("error", reject);
      call.on("end", resolve);
    });
    expect(got.length).toBe(10_000);
    expect(got.every((s, i) => s === BigInt(i))).toBe(true);
  });

  it("server streaming read as views: each valid while the next 31 of the method arrive, stale after", async () => {
    const viewClient = grpcClient(Ticker, address, grpc.credentials.createInsecure(), { receive: "view" });
    const views: MessageView[] = [];
    let sum = 0;
    await new Promise<void>((resolve, reject) => {
      const call = viewClient.stream({ symbol: "V", count: 2_000 });
      call.on("data", (t) => {
        expect(t).toBeInstanceOf(MessageView);
        sum += Number(t.seq);
        expect(t.symbol).toBe("V");
        views.push(t);
      });
      call.on("error", reject);
      call.on("end", resolve);
    });
    viewClient.close();
    expect(sum).toBe((1999 * 2000) / 2);
    expect(() => (views[0] as unknown as TickPlain).symbol).toThrow(StaleViewError);
    expect(() => (views.at(-VIEW_RING - 1) as unknown as TickPlain).symbol).toThrow(StaleViewError);
    expect(views.slice(-VIEW_RING).map((v) => (v as unknown as TickPlain).seq)).toEqual(Array.from({ length: VIEW_RING }, (_, i) => BigInt(2000 - VIEW_RING + i)));
  });

  it("a server error in mid-stream ends the stream with its status", async () => {
    const got: bigint[] = [];
    const error = await new Promise<grpc.ServiceError>((resolve) => {
      const call = client.stream({ symbol: "E", count: 10, failWith: grpc.status.UNAVAILABLE });
      call.on("data", (t: TickPlain) => got.push(t.seq));
      call.on("error", resolve);
    });
    expect([error.code, error.details]).toEqual([grpc.status.UNAVAILABLE, "feed broke"]);
    expect(got).toEqual([0n, 1n, 2n]);
  });

  it("cancellation: the client cancels a long stream; the server sees it and stops", async () => {
    let serverSawCancel = false;
    const server2 = new grpc.Server();
    server2.addService(...grpcServe(Ticker, {
      ...grpcImplementation,
      stream(call) {
        call.on("cancelled", () => (serverSawCancel = true));
        const timer = setInterval(() => (call.cancelled ? clearInterval(timer) : call.write(tick(1))), 1);
      },
    }));
    const client2 = grpcClient(Ticker, await listen(server2), grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError>((resolve) => {
      const call = client2.stream({ count: 1 });
      let n = 0;
      call.on("data", () => ++n === 3 && call.cancel());
      call.on("error", resolve);
    });
    expect(error.code).toBe(grpc.status.CANCELLED);
    await new Promise((r) => setTimeout(r, 50));
    expect(serverSawCancel).toBe(true);
    client2.close();
    server2.forceShutdown();
  });

  it("client streaming and bidi streaming", async () => {
    const summary = await unary<{ count: number; total: number; symbols: string[] }>((done) => {
      const call = client.collect(done);
      for (let i = 0; i < 100; i++) call.write(tick(i, i % 2 ? "A" : "B"));
      call.end();
    });
    expect(summary).toEqual({ count: 100, total: (99 * 100) / 2 / 4, symbols: ["B", "A"] });
    const echoed: TickPlain[] = [];
    await new Promise<void>((resolve, reject) => {
      const call = client.echo();
      call.on("data", (t: TickPlain) => echoed.push(t));
      call.on("error", reject);
      call.on("end", resolve);
      for (let i = 1; i <= 50; i++) call.write(tick(i));
      call.end();
    });
    expect(echoed.map((t) => t.seq)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(2 * (i + 1))));
  });

  it("a request the codec rejects fails that call with INVALID_ARGUMENT and the DecodeError's message; the server keeps serving", async () => {
    expect(await rawCall(address, Ticker.methods.quote, [notUtf8])).toEqual([grpc.status.INVALID_ARGUMENT, notUtf8Details("Subscribe")]);
    expect(await rawCall(address, Ticker.methods.quote, [Buffer.from([0x0a, 0x05, 0x41])])).toEqual([grpc.status.INVALID_ARGUMENT, "length runs past the end of the enclosing message at byte 2 (rpc_test.Subscribe.symbol) [LENGTH_OUT_OF_BOUNDS]"]);
    expect(await rawCall(address, Ticker.methods.collect, [Buffer.from(Tick.encode(tick(1))), notUtf8])).toEqual([grpc.status.INVALID_ARGUMENT, notUtf8Details("Tick")]);
    expect(await rawCall(address, Ticker.methods.echo, [Buffer.from(Tick.encode(tick(1))), notUtf8])).toEqual([grpc.status.INVALID_ARGUMENT, notUtf8Details("Tick")]);
    expect(await unary<TickPlain>((done) => client.quote({ symbol: "STILL" }, done))).toEqual(tick(7, "STILL"));
  });

  it("a response the codec cannot encode fails the call with an error; the server keeps serving", async () => {
    const server3 = new grpc.Server();
    server3.addService(...grpcServe(Ticker, { ...grpcImplementation, quote: (_call, done) => done(null, { symbol: 5 as unknown as string }) }));
    const client3 = grpcClient(Ticker, await listen(server3), grpc.credentials.createInsecure());
    const error = await unary((done) => client3.quote({}, done)).catch((e: grpc.ServiceError) => e);
    expect(error.code).toBe(grpc.status.INTERNAL);
    client3.close();
    server3.forceShutdown();
  });
});

describe("hppproto/nice-grpc: a nice-grpc server and client", () => {
  const server = createServer();
  let channel: ReturnType<typeof createChannel>;
  let address = "";
  const definition = niceGrpcService(Ticker);
  beforeAll(async () => {
    server.add(...niceGrpcServe(Ticker, {
      async quote(request, context: CallContext) {
        if (request.failWith !== 0) throw new ServerError(request.failWith as Status, `no quote for ${request.symbol}`);
        context.trailer.set("x-served-for", context.metadata.get("x-user") ?? "");
        return tick(7, request.symbol);
      },
      async *stream(request, context: CallContext) {
        for (let i = 0; i < request.count; i++) {
          if (context.signal.aborted) return;
          yield tick(i, request.symbol);
          if (request.count > 1_000_000) await new Promise((r) => setTimeout(r, 1));
        }
      },
      collect: summarize,
      async *echo(requests) {
        for await (const t of requests) yield echoed(t);
      },
    }));
    address = `127.0.0.1:${await server.listen("127.0.0.1:0")}`;
    channel = createChannel(address);
  });
  afterAll(async () => {
    channel.close();
    await server.shutdown();
  });

  it("every kind of method, metadata and error statuses", async () => {
    const client = createClient(definition, channel);
    let served: string | undefined;
    expect(await client.quote({ symbol: "N" }, { metadata: NiceMetadata({ "x-user": "grace" }), onTrailer: (t) => (served = t.get("x-served-for")) })).toEqual(tick(7, "N"));
    expect(served).toBe("grace");
    const error = await client.quote({ symbol: "X", failWith: Status.PERMISSION_DENIED }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: Status.PERMISSION_DENIED, details: "no quote for X" });
    const seqs: bigint[] = [];
    for await (const t of client.stream({ symbol: "S", count: 1000 })) seqs.push(t.seq);
    expect(seqs).toEqual(Array.from({ length: 1000 }, (_, i) => BigInt(i)));
    async function* ticks(n: number) {
      for (let i = 1; i <= n; i++) yield tick(i, "C");
    }
    expect(await client.collect(ticks(10))).toEqual({ count: 10, total: 55 / 4, symbols: ["C"] });
    const echoed: bigint[] = [];
    for await (const t of client.echo(ticks(5))) echoed.push(t.seq);
    expect(echoed).toEqual([2n, 4n, 6n, 8n, 10n]);
  });

  it("cancellation through an AbortSignal ends the call with ABORTED on the client", async () => {
    const client = createClient(definition, channel);
    const abort = new AbortController();
    let n = 0;
    const error = await (async () => {
      for await (const _ of client.stream({ count: 10_000_000 }, { signal: abort.signal })) if (++n === 5) abort.abort();
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe("AbortError");
    expect(n).toBe(5);
  });

  it("views on receipt: a stream read without a plain object per message, valid in a loop body that awaits (the libraries read ahead)", async () => {
    const client = createClient(niceGrpcService(Ticker, { receive: "view" }), channel);
    let total = 0;
    for await (const t of client.stream({ symbol: "V", count: 2000 })) {
      expect(t).toBeInstanceOf(MessageView);
      await new Promise((r) => setTimeout(r, 0)); // a slow consumer: grpc-js decodes ahead into its stream buffer meanwhile
      total += Number(t.seq);
    }
    expect(total).toBe((1999 * 2000) / 2);
  });

  it("a request the codec rejects fails that call with INVALID_ARGUMENT and the DecodeError's message", async () => {
    expect(await rawCall(address, Ticker.methods.quote, [notUtf8])).toEqual([Status.INVALID_ARGUMENT, notUtf8Details("Subscribe")]);
    expect(await rawCall(address, Ticker.methods.collect, [notUtf8])).toEqual([Status.INVALID_ARGUMENT, notUtf8Details("Tick")]);
    expect(await createClient(definition, channel).quote({ symbol: "STILL" })).toEqual(tick(7, "STILL"));
  });
});

describe("hppproto/connect: a Connect-ES server (connect-node)", () => {
  let server: http2.Http2Server;
  let address = "";
  beforeAll(async () => {
    [server, address] = await listenConnect((router) => router.service(...connectService(Ticker, { quote: (request) => tick(7, request.symbol), collect: summarize })));
  });
  afterAll(() => {
    server.close();
  });

  it("a request hppproto rejects fails with INVALID_ARGUMENT and the DecodeError's message, over gRPC and the Connect protocol", async () => {
    expect(await rawCall(address, Ticker.methods.quote, [notUtf8])).toEqual([Code.InvalidArgument, notUtf8Details("Subscribe")]);
    expect(await rawCall(address, Ticker.methods.collect, [notUtf8])).toEqual([Code.InvalidArgument, notUtf8Details("Tick")]);
    expect(await connectPost(address, Ticker.methods.quote.path, notUtf8)).toEqual([400, { code: "invalid_argument", message: notUtf8Details("Subscribe") }]);
  });

  it("bytes whose top-level fields Connect-ES cannot split are its own parse error: INTERNAL", async () => {
    expect(await connectPost(address, Ticker.methods.quote.path, Buffer.from([0x0a, 0x05, 0x41]))).toEqual([500, { code: "internal", message: "parse binary: premature EOF" }]);
  });
});

describe("a server's request views belong to the call", () => {
  it("details of a rejected request are bounded: a path nested 100 deep is cut short", () => {
    const e = new MalformedRequestError(new DecodeError("TRUNCATED", 7, "a.b".repeat(1000)));
    expect(e.details.length).toBe(256);
    expect(e.details.startsWith("input ends inside a value at byte 7 (a.ba.b")).toBe(true);
    expect(e.details.endsWith("…")).toBe(true);
    expect(e.code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  // A handler that awaits (an auth check, a database lookup) before it is done with its request,
  // while another client sends 48 requests of the same method: what it read before and after
  // the await, and the request's bytes it answers with (encoded after it returned), are its own.
  const victim = { symbol: "pay 10 to alice", memo: new TextEncoder().encode("memo alice"), amounts: [10], count: 1 };
  const other = (i: number) => ({ symbol: `pay 9999 to m${i}`, memo: new TextEncoder().encode(`memo m${i}`), amounts: [1, i], count: 0 });
  const expected = (r: { symbol: string; memo: Uint8Array; amounts: number[] }) => ({ symbol: r.symbol, payload: r.memo, price: r.amounts.reduce((a, b) => a + b) });
  type Answer = { symbol: string; payload: Uint8Array; price: number };

  /** The handler: the victim's call (count 1) waits for `release` after taking its fields. */
  function slowHandler() {
    let entered!: () => void, release!: () => void;
    const inside = new Promise<void>((r) => (entered = r)), gate = new Promise<void>((r) => (release = r));
    const handle = async (request: SubscribePlain): Promise<Answer> => {
      expect(request).toBeInstanceOf(MessageView);
      const memo = request.memo, amounts = request.amounts;
      if (request.count === 1) {
        entered();
        await gate;
      }
      const sum = [...amounts].reduce((a, b) => a + b, 0);
      expect([...request.amounts]).toEqual([...amounts]);
      return { symbol: request.symbol, payload: memo, price: sum };
    };
    return { handle, inside, release };
  }

  async function interleave(quote: (client: number, request: typeof victim) => Promise<Answer>, slow: ReturnType<typeof slowHandler>) {
    const answer = quote(0, victim);
    await slow.inside;
    for (let i = 0; i < 48; i += 8) {
      const batch = Array.from({ length: 8 }, (_, k) => other(i + k));
      const answers = await Promise.all(batch.map((r) => quote(1, r)));
      expect(answers.map(plainAnswer)).toEqual(batch.map(expected));
    }
    slow.release();
    expect(plainAnswer(await answer)).toEqual(expected(victim));
  }
  const plainAnswer = (t: Answer) => ({ symbol: t.symbol, payload: new Uint8Array(t.payload), price: t.price });

  /** Two grpc-js clients on connections of their own. */
  function grpcClients(address: string) {
    const clients = [0, 1].map(() => grpcClient(Ticker, address, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 }));
    const quote = (i: number, request: typeof victim) => unary<TickPlain>((done) => clients[i]!.quote(request, done));
    return { quote, close: () => clients.forEach((c) => c.close()) };
  }

  it("grpc-js (grpcServe)", async () => {
    const slow = slowHandler();
    const server = new grpc.Server();
    server.addService(...grpcServe(Ticker, { quote: (call, done) => void slow.handle(call.request).then((a) => done(null, a), done) }, { receive: "view" }));
    const clients = grpcClients(await listen(server));
    try {
      await interleave(clients.quote, slow);
    } finally {
      clients.close();
      server.forceShutdown();
    }
  });

  it("nice-grpc (niceGrpcServe)", async () => {
    const slow = slowHandler();
    const server = createServer();
    server.add(...niceGrpcServe(Ticker, {
      quote: slow.handle,
      async *stream() {},
      collect: summarize,
      async *echo() {},
    }, { receive: "view" }));
    const address = `127.0.0.1:${await server.listen("127.0.0.1:0")}`;
    const channels = [0, 1].map(() => createChannel(address, undefined, { "grpc.use_local_subchannel_pool": 1 }));
    const clients = channels.map((c) => createClient(niceGrpcService(Ticker), c));
    try {
      await interleave((i, request) => clients[i]!.quote(request), slow);
    } finally {
      channels.forEach((c) => c.close());
      await server.shutdown();
    }
  });

  it("Connect-ES (connectService), called over gRPC", async () => {
    const slow = slowHandler();
    const [server, address] = await listenConnect((router) => router.service(...connectService(Ticker, { quote: slow.handle }, { receive: "view" })));
    const clients = grpcClients(address);
    try {
      await interleave(clients.quote, slow);
    } finally {
      clients.close();
      server.close();
    }
  });

  it("a stream's requests (grpc-js): views of the call's messages stay valid while its handler awaits, whatever other calls send", async () => {
    let entered!: () => void, release!: () => void;
    const inside = new Promise<void>((r) => (entered = r)), gate = new Promise<void>((r) => (release = r));
    let first = true;
    const server = new grpc.Server();
    server.addService(...grpcServe(Ticker, {
      collect(call, done) {
        const seen: TickPlain[] = [];
        call.on("data", (t: TickPlain) => seen.push(t));
        call.on("end", () => void (async () => {
          const payload = seen[0]!.payload; // a subarray of the request, taken before the await
          if (first) { // the victim's call, which the test starts first
            first = false;
            entered();
            await gate;
          }
          return { count: seen.length, total: payload[0]!, symbols: seen.map((t) => t.symbol) };
        })().then((summary) => done(null, summary), done));
      },
    }, { receive: "view" }));
    const address = await listen(server);
    const clients = [0, 1].map(() => grpcClient(Ticker, address, grpc.credentials.createInsecure(), { "grpc.use_local_subchannel_pool": 1 }));
    const collect = (client: number, ticks: TickPlain[]) => unary<SummaryPlain>((done) => {
      const call = clients[client]!.collect(done);
      for (const t of ticks) call.write(t);
      call.end();
    });
    try {
      const answer = collect(0, [tick(10, "victim"), tick(11, "victim too")]);
      await inside;
      for (let i = 0; i < 48; i++) expect(await collect(1, [tick(200 + i, `other ${i}`), tick(i, "x")])).toEqual({ count: 2, total: 200 + i, symbols: [`other ${i}`, "x"] });
      release();
      expect(await answer).toEqual({ count: 2, total: 10, symbols: ["victim", "victim too"] });
    } finally {
      clients.forEach((c) => c.close());
      server.forceShutdown();
    }
  });
});

/** A Connect-ES server (connect-node over HTTP/2) of these routes, and its address. */
async function listenConnect(routes: (router: ConnectRouter) => void): Promise<[http2.Http2Server, string]> {
  const server = http2.createServer(connectNodeAdapter({ routes }));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return [server, `127.0.0.1:${(server.address() as { port: number }).port}`];
}

/** Bytes of a request whose string field (1) is not UTF-8, and what its call is answered with. */
const notUtf8 = Buffer.from([0x0a, 0x02, 0xff, 0xfe]);
const notUtf8Details = (message: string) => `string field is not valid UTF-8 at byte 2 (rpc_test.${message}.symbol) [INVALID_UTF8]`;

/** Sends raw frames to a method (a client of grpc-js with serializers that pass bytes through): the status code and details it ends with. */
async function rawCall(address: string, method: { path: string; kind: string }, frames: Buffer[]): Promise<[number, string]> {
  const same = (b: Buffer) => b;
  const streams = method.kind === "client_streaming" || method.kind === "bidi_streaming";
  const Raw = grpc.makeGenericClientConstructor({
    call: { path: method.path, requestStream: streams, responseStream: method.kind === "bidi_streaming" || method.kind === "server_streaming", requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same },
  }, "Raw");
  const raw = new Raw(address, grpc.credentials.createInsecure()) as unknown as Record<string, (...args: unknown[]) => grpc.ClientWritableStream<Buffer> & grpc.ClientReadableStream<Buffer>> & { close(): void };
  try {
    const status = await new Promise<grpc.StatusObject>((resolve) => {
      const done = () => {};
      const call = method.kind === "unary" ? raw.call!(frames[0], done) : method.kind === "client_streaming" ? raw.call!(done) : raw.call!();
      call.on("status", resolve);
      call.on("error", () => {});
      call.on("data", () => {});
      if (streams) {
        for (const f of frames) call.write(f);
        call.end();
      }
    });
    return [status.code, status.details];
  } finally {
    raw.close();
  }
}

/** A unary call in the Connect protocol with raw bytes: the HTTP status and the error body. */
async function connectPost(address: string, path: string, body: Buffer): Promise<[number, unknown]> {
  const session = http2.connect(`http://${address}`);
  try {
    return await new Promise((resolve, reject) => {
      const request = session.request({ ":method": "POST", ":path": path, "content-type": "application/proto", "connect-protocol-version": "1" });
      let status = 0;
      const chunks: Buffer[] = [];
      request.on("response", (headers) => (status = Number(headers[":status"])));
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => resolve([status, JSON.parse(Buffer.concat(chunks).toString())]));
      request.on("error", reject);
      request.end(body);
    });
  } finally {
    session.close();
  }
}

describe("service and method options through reflection", () => {
  it("custom options of services and methods read with getOption", async () => {
    const o = await import("./gen/custom_options/custom_options_pb.js");
    expect(getOption(o.Catalogue, o.owner)).toBe("catalogue-team");
    expect(getOption(o.Catalogue.methods.lookup, o.cost)).toBe(3);
    expect(getOption(o.Catalogue.methods.lookup, o.method_level)).toBe(o.Level.LEVEL_LOW);
    expect(o.Catalogue.methods.lookup.idempotency).toBe("no_side_effects");
    expect(getOption(o.Catalogue.methods.watch, o.cost)).toBeUndefined();
    expect(o.Catalogue.methods.watch.kind).toBe("bidi_streaming");
  });
});

describe("methods named after Object.prototype members and then (names_rpc.proto): called by their $ properties, never by a prototype's", () => {
  const answer = (tag: string) => (request: Word): Word => ({ ...request, text: `${tag}:${request.text}` });
  const unaries = [["__proto__$", "__proto__"], ["then$", "then"], ["then$$", "Then"], ["constructor$", "constructor"], ["__defineGetter__$", "__defineGetter__"]] as const;
  // every method but toString, left out: it must answer UNIMPLEMENTED, not run Object.prototype.toString
  const grpcImplementation: Partial<GrpcImplementation<typeof Prototype>> = {
    ...Object.fromEntries(unaries.map(([property, name]) => [property, (call: grpc.ServerUnaryCall<Word, Word>, done: grpc.sendUnaryData<Word>) => done(null, answer(name)(call.request))])),
    hasOwnProperty$: (call) => call.on("data", (w: Word) => call.write(answer("hasOwnProperty")(w))).on("end", () => call.end()),
  };
  const server = new grpc.Server();
  let address = "";
  // a guard against a handler that never answers (what Object.prototype.toString would be), not a timing
  const guard = () => ({ deadline: Date.now() + 20_000 });
  const call = (client: GrpcClient<typeof Prototype>, property: (typeof unaries)[number][0] | "toString$") =>
    unary<Word>((done) => client[property]({ text: "x" }, new grpc.Metadata(), guard(), done)).catch((e: grpc.ServiceError) => e.code);
  beforeAll(async () => {
    server.addService(...grpcServe(Prototype, grpcImplementation));
    address = await listen(server);
  });
  afterAll(() => server.forceShutdown());

  it("the generated service lists every method, __proto__ included; a ServiceType made by hand cannot take such a property", () => {
    expect(Object.values(Prototype.methods).map((m) => m.name)).toEqual(["__proto__", "then", "Then", "constructor", "toString", "hasOwnProperty", "__defineGetter__"]);
    for (const property of ["constructor", "then", "__proto__"]) {
      expect(() => new ServiceType("x.S", Object.fromEntries([[property, [property, WordType, WordType, 0]]]))).toThrow(`x.S: a method's property cannot be "${property}" (generated code names it "${property}$")`);
    }
  });

  it("grpc-js: the client is no thenable and keeps Object's toString; each method answers; one left out is UNIMPLEMENTED", async () => {
    const client = grpcClient(Prototype, address, grpc.credentials.createInsecure());
    try {
      expect("then" in client).toBe(false);
      expect(await client).toBe(client); // would have sent an RPC
      expect(String(client)).toBe("[object Object]");
      for (const [property, name] of unaries) expect(await call(client, property)).toEqual({ text: `${name}:x`, kind: 0, kinds: [], byName: {} });
      expect(await call(client, "toString$")).toBe(grpc.status.UNIMPLEMENTED);
      const echoed: string[] = [];
      await new Promise<void>((ok, fail) => {
        const stream = client.hasOwnProperty$(new grpc.Metadata(), guard()).on("data", (w: Word) => echoed.push(w.text)).on("end", ok).on("error", fail);
        stream.write({ text: "a" });
        stream.end();
      });
      expect(echoed).toEqual(["hasOwnProperty:a"]);
    } finally {
      client.close();
    }
  });

  it("nice-grpc: the client is no thenable; each method answers", async () => {
    const channel = createChannel(address);
    try {
      const client = createClient(niceGrpcService(Prototype), channel);
      expect("then" in client).toBe(false);
      for (const [property, name] of unaries) expect((await client[property]({ text: "n" })).text).toBe(`${name}:n`);
    } finally {
      channel.close();
    }
  });

  it("Connect-ES (hppproto/connect): each method answers; one left out is UNIMPLEMENTED, not Object's constructor echoing the request", async () => {
    const connect = http2.createServer(connectNodeAdapter({
      routes: (router) => router.service(...connectService(Object$, { then$: answer("then"), toString$: answer("toString") })),
    }));
    await new Promise<void>((ok) => connect.listen(0, "127.0.0.1", ok));
    const client = grpcClient(Object$, `127.0.0.1:${(connect.address() as { port: number }).port}`, grpc.credentials.createInsecure());
    const call = (property: keyof typeof Object$.methods) =>
      unary<Word>((done) => client[property]({ text: "x" }, new grpc.Metadata(), guard(), done)).catch((e: grpc.ServiceError) => e.code);
    try {
      expect((await call("then$") as Word).text).toBe("then:x");
      expect((await call("toString$") as Word).text).toBe("toString:x");
      expect(await call("constructor$")).toBe(grpc.status.UNIMPLEMENTED);
    } finally {
      client.close();
      connect.close();
    }
  });
});
