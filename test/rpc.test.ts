// The RPC adapters against the real libraries over 127.0.0.1: a grpc-js server and client
// (hppproto/grpc-js), and nice-grpc's (hppproto/nice-grpc), each kind of method, errors, metadata,
// cancellation, views on receipt, and input the codec rejects.
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createChannel, createClient, createServer, Metadata as NiceMetadata, ServerError, Status, type CallContext } from "nice-grpc";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Arena, getOption, init, MessageView, ServiceType, StaleViewError } from "hppproto";
import { connectService } from "hppproto/connect";
import { grpcClient, grpcService, type GrpcClient, type GrpcImplementation } from "hppproto/grpc-js";
import { niceGrpcService } from "hppproto/nice-grpc";
import { decoder, VIEW_RING } from "../dist/ts/rpc/codec.js";
import { Subscribe, Summary, Tick, Ticker, type Tick as TickPlain } from "./gen/rpc/rpc_pb.js";
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

describe("views on receipt (the adapters' shared decoder)", () => {
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
    server.addService(grpcService(Ticker), grpcImplementation);
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
    server2.addService(grpcService(Ticker), {
      ...grpcImplementation,
      stream(call) {
        call.on("cancelled", () => (serverSawCancel = true));
        const timer = setInterval(() => (call.cancelled ? clearInterval(timer) : call.write(tick(1))), 1);
      },
    });
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

  it("a request the codec rejects (malformed bytes) fails that call with INTERNAL; the server keeps serving", async () => {
    // a client that sends raw bytes on Quote's path
    const Raw = grpc.makeGenericClientConstructor({
      quote: { path: Ticker.methods.quote.path, requestStream: false, responseStream: false,
        requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b, responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => b },
    }, "Raw");
    const raw = new Raw(address, grpc.credentials.createInsecure()) as unknown as { quote: (b: Buffer, done: (e: grpc.ServiceError | null) => void) => void; close(): void };
    const error = await unary((done) => raw.quote(Buffer.from([0x0a, 0x05, 0x41]), done)).catch((e: grpc.ServiceError) => e); // a string field cut short
    raw.close();
    expect(error.code).toBe(grpc.status.INTERNAL);
    expect(await unary<TickPlain>((done) => client.quote({ symbol: "STILL" }, done))).toEqual(tick(7, "STILL"));
  });

  it("a response the codec cannot encode fails the call with an error; the server keeps serving", async () => {
    const server3 = new grpc.Server();
    server3.addService(grpcService(Ticker), { ...grpcImplementation, quote: (_call, done) => done(null, { symbol: 5 as unknown as string }) });
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
  const definition = niceGrpcService(Ticker);
  beforeAll(async () => {
    server.add(definition, {
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
    });
    const port = await server.listen("127.0.0.1:0");
    channel = createChannel(`127.0.0.1:${port}`);
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
    server.addService(grpcService(Prototype), grpcImplementation as grpc.UntypedServiceImplementation);
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
