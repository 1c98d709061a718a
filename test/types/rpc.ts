// Type-checked, not run (codegen.test.ts runs tsc on it): handlers and clients of the RPC adapters
// are typed from a generated service; @ts-expect-error lines must fail.
import * as grpc from "@grpc/grpc-js";
import { createChannel, createClient, createServer } from "nice-grpc";
import { ConnectRouter } from "@connectrpc/connect";
import { MessageView } from "hppproto";
import { connectService } from "hppproto/connect";
import { grpcClient, grpcServe, grpcService, type GrpcImplementation } from "hppproto/grpc-js";
import { niceGrpcServe, niceGrpcService } from "hppproto/nice-grpc";
import { Ticker, type Tick } from "../gen/rpc/rpc_pb.js";
import { Prototype } from "../gen/names/names_rpc_pb.js";

const implementation: GrpcImplementation<typeof Ticker> = {
  quote: (call, done) => done(null, { symbol: call.request.symbol, seq: 1n }),
  stream(call) {
    call.write({ price: call.request.count });
    call.end();
  },
  collect: (call, done) => call.on("data", (t: Tick) => done(null, { count: Number(t.seq) })),
  echo: (call) => call.on("data", (t: Tick) => call.write(t)),
};
new grpc.Server().addService(grpcService(Ticker), implementation);
new grpc.Server().addService(...grpcServe(Ticker, implementation));
new grpc.Server().addService(...grpcServe(Ticker, { quote: (call, done) => done(null, { symbol: call.request.$toObject().symbol }) }, { receive: "view" }));
// @ts-expect-error a Tick's symbol is a string
grpcServe(Ticker, { quote: (_call, done) => done(null, { symbol: 5 }) });
const badImplementation: GrpcImplementation<typeof Ticker> = {
  ...implementation,
  // @ts-expect-error a Tick's symbol is a string
  quote: (_call, done) => done(null, { symbol: 5 }),
};
void badImplementation;

const client = grpcClient(Ticker, "127.0.0.1:1", grpc.credentials.createInsecure());
client.quote({ symbol: "A" }, (_e, tick) => tick?.price.toFixed(2));
// @ts-expect-error Subscribe has no field named sym
client.quote({ sym: "A" }, () => {});
const views = grpcClient(Ticker, "127.0.0.1:1", grpc.credentials.createInsecure(), { receive: "view" });
views.stream({ count: 1 }).on("data", (t: MessageView & { seq: bigint }) => t.seq);

const nice = createClient(niceGrpcService(Ticker), createChannel("127.0.0.1:1"));
const reply: Promise<Tick> = nice.quote({ symbol: "A" });
void reply;
createServer().add(niceGrpcService(Ticker), {
  async quote(request) {
    return { symbol: request.symbol };
  },
  async *stream() {},
  async collect() {
    return {};
  },
  async *echo(requests) {
    for await (const t of requests) yield t;
  },
});

createServer().add(...niceGrpcServe(Ticker, {
  async quote(request) {
    return { symbol: request.$toObject().symbol };
  },
  async *stream() {},
  async collect() {
    return {};
  },
  async *echo(requests) {
    for await (const t of requests) yield t;
  },
}, { receive: "view" }));
niceGrpcServe(Ticker, {
  // @ts-expect-error quote answers a Tick, whose symbol is a string
  async quote() {
    return { symbol: 5 };
  },
  async *stream() {},
  async collect() {
    return {};
  },
  async *echo() {},
});

(router: ConnectRouter) => router.service(...connectService(Ticker, { quote: (request) => ({ symbol: request.symbol }) }));
// @ts-expect-error quote answers a Tick, whose symbol is a string
connectService(Ticker, { quote: () => ({ symbol: 5 }) });

// methods named after Object.prototype members or then: under their $ properties only
const prototypeClient = grpcClient(Prototype, "127.0.0.1:1", grpc.credentials.createInsecure());
prototypeClient.then$({ text: "a" }, (_e, w) => w?.text);
prototypeClient.constructor$({ text: "a" }, () => {});
// @ts-expect-error no method is named then
prototypeClient.then({ text: "a" }, () => {});
const prototypeNice = createClient(niceGrpcService(Prototype), createChannel("127.0.0.1:1"));
const word: Promise<{ text: string }> = prototypeNice.__proto__$({ text: "a" });
void word;
connectService(Prototype, { toString$: (request) => ({ text: request.text }) });
