// hppproto/nice-grpc: a generated service as nice-grpc (Node) and nice-grpc-web (browsers) take it,
// their own definition format, which imports nothing of either library.
import { streamsRequests, streamsResponses, type Method, type ServiceType } from "../service.js";
import type { AnyMessageType } from "../message.js";
import { decoder, encoder, type IterableImplementation, type Receive, type Received, type RpcOptions, type Sent } from "./codec.js";
import { iterableHandler, replyEncoder, ServerMethod } from "./requests.js";

export type { Receive, Received, RpcOptions, Sent } from "./codec.js";

/** nice-grpc's MethodDefinition (nice-grpc-common's shape). */
export interface NiceMethodDefinition<RequestIn, RequestOut, ResponseIn, ResponseOut, RequestStream extends boolean, ResponseStream extends boolean> {
  path: string;
  requestStream: RequestStream;
  responseStream: ResponseStream;
  requestSerialize(value: RequestIn): Uint8Array;
  requestDeserialize(bytes: Uint8Array): RequestOut;
  responseSerialize(value: ResponseIn): Uint8Array;
  responseDeserialize(bytes: Uint8Array): ResponseOut;
  options: { idempotencyLevel?: "IDEMPOTENT" | "NO_SIDE_EFFECTS" };
}

type Streams<Kind> = Kind extends "unary" ? [false, false] : Kind extends "server_streaming" ? [false, true] : Kind extends "client_streaming" ? [true, false] : [true, true];

/**
 * nice-grpc's definition of service S, for createClient() and nice-grpc-web's. A server given it
 * decodes requests to plain objects; niceGrpcServe() receives views and rejects malformed requests.
 */
export type NiceGrpcDefinition<S extends ServiceType, R extends Receive = "plain"> = {
  [K in keyof S["methods"]]: S["methods"][K] extends Method<infer I, infer O, infer Kind>
    ? NiceMethodDefinition<Sent<I>, Received<I, "plain">, Sent<O>, Received<O, R>, Streams<Kind>[0], Streams<Kind>[1]> : never;
};

/** The handlers of service S, nice-grpc style, with C the type of the call context (nice-grpc's CallContext). */
export type NiceGrpcImplementation<S extends ServiceType, R extends Receive = "plain", C = unknown> = IterableImplementation<S, R, C>;

/** The definition niceGrpcServe() gives nice-grpc's server: requests reach its handlers as bytes. */
export type NiceGrpcServerDefinition<S extends ServiceType> = {
  [K in keyof S["methods"]]: S["methods"][K] extends Method<infer I, infer _O, infer Kind>
    ? NiceMethodDefinition<Sent<I>, Uint8Array, unknown, unknown, Streams<Kind>[0], Streams<Kind>[1]> : never;
};

/** The handlers niceGrpcServe() gives nice-grpc's server, around the implementation. */
export type NiceGrpcServerImplementation<S extends ServiceType> = {
  [K in keyof S["methods"]]: S["methods"][K] extends Method<infer _I, infer _O, infer Kind>
    ? Kind extends "unary" ? (request: Uint8Array, context: unknown) => Promise<unknown>
    : Kind extends "server_streaming" ? (request: Uint8Array, context: unknown) => AsyncIterable<unknown>
    : Kind extends "client_streaming" ? (requests: AsyncIterable<Uint8Array>, context: unknown) => Promise<unknown>
    : (requests: AsyncIterable<Uint8Array>, context: unknown) => AsyncIterable<unknown>
    : never;
};

const idempotency = { unknown: undefined, no_side_effects: "NO_SIDE_EFFECTS", idempotent: "IDEMPOTENT" } as const;

type Definition = NiceMethodDefinition<unknown, unknown, unknown, unknown, boolean, boolean>;

/** A method's nice-grpc definition, with the deserializers and the response serializer given. */
function definition(m: Method, requestDeserialize: (bytes: Uint8Array) => unknown, responseSerialize: (value: unknown) => Uint8Array, responseDeserialize: (bytes: Uint8Array) => unknown): Definition {
  const level = idempotency[m.idempotency];
  return {
    path: m.path, requestStream: streamsRequests(m.kind), responseStream: streamsResponses(m.kind),
    requestSerialize: encoder(m.input) as (v: unknown) => Uint8Array, requestDeserialize, responseSerialize, responseDeserialize,
    options: level === undefined ? {} : { idempotencyLevel: level },
  };
}

/**
 * nice-grpc's ServiceDefinition of a generated service, for clients. `receive: "view"` hands the
 * responses a client receives over as views (each valid while the next 31 messages of the method
 * arrive), else as plain objects. Servers take niceGrpcServe().
 *
 *     createClient(niceGrpcService(Greeter, { receive: "view" }), createChannel("127.0.0.1:50051"));
 */
export function niceGrpcService<S extends ServiceType, R extends Receive = "plain">(service: S, options?: RpcOptions<R>): NiceGrpcDefinition<S, R> {
  const out: Record<string, Definition> = {};
  for (const m of Object.values(service.methods) as Method[]) {
    out[m.property] = definition(m, decoder(m.input, undefined), encoder(m.output) as (v: unknown) => Uint8Array, decoder(m.output, options?.receive));
  }
  return out as NiceGrpcDefinition<S, R>;
}

/**
 * What nice-grpc's `server.add()` takes to serve a generated service: its definition and the
 * implementation, wrapped so that each call owns the arenas of its requests' views (valid until
 * the handler's promise settles or its stream ends and the answers are encoded, whatever other
 * calls arrive), and a request that cannot be decoded ends its call with INVALID_ARGUMENT and the
 * DecodeError's message.
 *
 *     createServer().add(...niceGrpcServe(Greeter, { async sayHello(request) { return { message: request.name }; } }, { receive: "view" }));
 */
export function niceGrpcServe<S extends ServiceType, R extends Receive = "plain", C = unknown>(
  service: S, implementation: NiceGrpcImplementation<S, R, C>, options?: RpcOptions<R>,
): [NiceGrpcServerDefinition<S>, NiceGrpcServerImplementation<S>] {
  const out: Record<string, Definition> = {};
  const handlers: Record<string, unknown> = {};
  for (const m of Object.values(service.methods) as Method[]) {
    // requests are decoded by the handler, which knows the call
    out[m.property] = definition(m, (bytes) => bytes, replyEncoder(encoder(m.output) as (v: unknown) => Uint8Array), decoder(m.output, undefined));
    const streamsIn = streamsRequests(m.kind), streamsOut = streamsResponses(m.kind);
    const own = (implementation as Record<string, (received: unknown, context: unknown) => unknown>)[m.property]!.bind(implementation);
    handlers[m.property] = iterableHandler(new ServerMethod(m.input as AnyMessageType, options?.receive), streamsIn, streamsOut, own, (call, value) => call.reply(value));
  }
  return [out as NiceGrpcServerDefinition<S>, handlers as NiceGrpcServerImplementation<S>];
}
