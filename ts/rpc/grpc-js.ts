// hppproto/grpc-js: a generated service as @grpc/grpc-js takes it. grpcService() gives the
// ServiceDefinition for `server.addService()` and `makeGenericClientConstructor()` (grpcClient()
// calls that), with hppproto encoding and decoding every message.
import { makeGenericClientConstructor, type CallOptions, type ChannelCredentials, type ChannelOptions, type Client, type ClientDuplexStream, type ClientReadableStream, type ClientUnaryCall, type ClientWritableStream, type handleBidiStreamingCall, type handleClientStreamingCall, type handleServerStreamingCall, type handleUnaryCall, type Metadata, type requestCallback, type ServiceDefinition, type UntypedHandleCall, type UntypedServiceImplementation } from "@grpc/grpc-js";
import type { AnyMessageType } from "../message.js";
import { safeProperty } from "../schema.js";
import { streamsRequests, streamsResponses, type Method, type ServiceType } from "../service.js";
import { decoder, encoder, type Receive, type Received, type RpcOptions, type Sent } from "./codec.js";
import { replyEncoder, ServerMethod, type ServerCall } from "./requests.js";

export type { Receive, Received, RpcOptions, Sent } from "./codec.js";

type Methods<S extends ServiceType> = S["methods"];

/** grpc-js's MethodDefinition, with what is sent and what is received typed apart. */
export interface GrpcMethodDefinition<Q, QOut, A, AOut> {
  path: string;
  /** The method's .proto name, which grpc-js also gives clients (`client.SayHello`) and looks handlers up by. */
  originalName?: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize(value: Q): Buffer;
  requestDeserialize(bytes: Buffer): QOut;
  responseSerialize(value: A): Buffer;
  responseDeserialize(bytes: Buffer): AOut;
}

/**
 * grpc-js's definition of service S: requests and responses are hppproto messages. A server given
 * it decodes requests to plain objects; grpcServe() receives views and rejects malformed requests.
 */
export type GrpcDefinition<S extends ServiceType, R extends Receive = "plain"> = {
  [K in keyof Methods<S>]: Methods<S>[K] extends Method<infer I, infer O>
    ? GrpcMethodDefinition<Sent<I>, Received<I, "plain">, Sent<O>, Received<O, R>> : never;
};

/** The handlers a grpc-js server takes for service S (`server.addService(grpcService(S), implementation)`). */
export type GrpcImplementation<S extends ServiceType, R extends Receive = "plain"> = {
  [K in keyof Methods<S>]: Methods<S>[K] extends Method<infer I, infer O, infer Kind>
    ? Kind extends "unary" ? handleUnaryCall<Received<I, R>, Sent<O>>
    : Kind extends "server_streaming" ? handleServerStreamingCall<Received<I, R>, Sent<O>>
    : Kind extends "client_streaming" ? handleClientStreamingCall<Received<I, R>, Sent<O>>
    : handleBidiStreamingCall<Received<I, R>, Sent<O>>
    : never;
};

interface UnaryCall<Q, A> {
  (request: Q, callback: requestCallback<A>): ClientUnaryCall;
  (request: Q, metadata: Metadata, callback: requestCallback<A>): ClientUnaryCall;
  (request: Q, metadata: Metadata, options: Partial<CallOptions>, callback: requestCallback<A>): ClientUnaryCall;
}
interface ClientStreamingCall<Q, A> {
  (callback: requestCallback<A>): ClientWritableStream<Q>;
  (metadata: Metadata, callback: requestCallback<A>): ClientWritableStream<Q>;
  (metadata: Metadata, options: Partial<CallOptions>, callback: requestCallback<A>): ClientWritableStream<Q>;
}
type ServerStreamingCall<Q, A> = (request: Q, metadata?: Metadata, options?: Partial<CallOptions>) => ClientReadableStream<A>;
type BidiStreamingCall<Q, A> = (metadata?: Metadata, options?: Partial<CallOptions>) => ClientDuplexStream<Q, A>;

/** A grpc-js client of service S: one method per RPC, under the service's property names. */
export type GrpcClient<S extends ServiceType, R extends Receive = "plain"> = Client & {
  [K in keyof Methods<S>]: Methods<S>[K] extends Method<infer I, infer O, infer Kind>
    ? Kind extends "unary" ? UnaryCall<Sent<I>, Received<O, R>>
    : Kind extends "server_streaming" ? ServerStreamingCall<Sent<I>, Received<O, R>>
    : Kind extends "client_streaming" ? ClientStreamingCall<Sent<I>, Received<O, R>>
    : BidiStreamingCall<Sent<I>, Received<O, R>>
    : never;
};

/** grpc-js serializes into Buffers: the encoded bytes, not copied. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * grpc-js's ServiceDefinition of a generated service, for clients. `receive: "view"` hands the
 * responses a client receives over as views (each valid while the next 31 messages of the method
 * arrive), else as plain objects. Servers take grpcServe().
 */
export function grpcService<S extends ServiceType, R extends Receive = "plain">(service: S, options?: RpcOptions<R>): GrpcDefinition<S, R> & ServiceDefinition {
  const out: Record<string, GrpcMethodDefinition<unknown, unknown, unknown, unknown>> = {};
  for (const m of Object.values(service.methods)) {
    const encodeResponse = encoder(m.output);
    out[m.property] = definition(m, originalName(service, m), decoder(m.input, undefined), (v) => asBuffer(encodeResponse(v as never)), decoder(m.output, options?.receive));
  }
  return out as GrpcDefinition<S, R> & ServiceDefinition;
}

/**
 * The .proto name grpc-js also gives a client's method: only where it is no method's property
 * (rpc Foo and rpc foo) and breaks nothing (an rpc `then` would make clients thenables, `toString`
 * take Object's as its handler).
 */
function originalName(service: ServiceType, m: Method): string | undefined {
  return Object.hasOwn(service.methods, m.name) || safeProperty(m.name) !== m.name ? undefined : m.name;
}

function definition(m: Method, alias: string | undefined, requestDeserialize: (bytes: Buffer) => unknown, responseSerialize: (value: unknown) => Buffer, responseDeserialize: (bytes: Buffer) => unknown): GrpcMethodDefinition<unknown, unknown, unknown, unknown> {
  const encodeRequest = encoder(m.input);
  return {
    path: m.path, ...(alias !== undefined && { originalName: alias }),
    requestStream: streamsRequests(m.kind), responseStream: streamsResponses(m.kind),
    requestSerialize: (v) => asBuffer(encodeRequest(v as never)), requestDeserialize, responseSerialize, responseDeserialize,
  };
}

/**
 * What `server.addService()` takes to serve a generated service: its definition and the
 * implementation, wrapped so that each call owns the arenas of its requests' views (valid until
 * the handler has answered or ended its stream and the answer is encoded, whatever other calls
 * arrive), and a request that cannot be decoded ends its call with INVALID_ARGUMENT and the
 * DecodeError's message (grpc-js answers a deserializer's error with INTERNAL). Methods left out
 * answer UNIMPLEMENTED.
 *
 *     server.addService(...grpcServe(Greeter, { sayHello: (call, done) => done(null, { message: call.request.name }) }, { receive: "view" }));
 */
export function grpcServe<S extends ServiceType, R extends Receive = "plain">(
  service: S, implementation: Partial<GrpcImplementation<S, R>>, options?: RpcOptions<R>,
): [ServiceDefinition, UntypedServiceImplementation] {
  const out: Record<string, GrpcMethodDefinition<unknown, unknown, unknown, unknown>> = {};
  const handlers: UntypedServiceImplementation = {};
  for (const m of Object.values(service.methods) as Method[]) {
    const encodeResponse = encoder(m.output);
    // requests are decoded by the handler, which knows the call
    out[m.property] = definition(m, originalName(service, m), (bytes) => bytes, replyEncoder((v) => asBuffer(encodeResponse(v as never))), decoder(m.output, undefined));
    const own = (implementation as Record<string, GrpcHandler | undefined>)[m.property];
    if (own !== undefined) handlers[m.property] = served(new ServerMethod(m.input as AnyMessageType, options?.receive), m, own.bind(implementation)) as unknown as UntypedHandleCall;
  }
  return [out as ServiceDefinition, handlers];
}

/** What grpc-js hands a handler: the call (a stream unless unary) and, if one answer is due, the callback. */
type GrpcCall = NodeJS.EventEmitter & {
  request?: unknown;
  push(chunk: unknown): boolean;
  write(chunk: unknown, ...rest: unknown[]): boolean;
  end(...rest: unknown[]): unknown;
};
type Respond = (error: unknown, value?: unknown, ...rest: unknown[]) => void;
type GrpcHandler = (call: GrpcCall, respond: Respond) => void;

/**
 * A handler of method m around `own`. grpc-js gives no other hook on a call's messages, so the
 * call object's own push() (requests in), write() and end() (answers out) are wrapped.
 */
function served(method: ServerMethod, m: Method, own: GrpcHandler): GrpcHandler {
  const streamsIn = streamsRequests(m.kind), streamsOut = streamsResponses(m.kind);
  return (call, respond) => {
    const requests = method.call();
    // grpc-js emits it once the status is sent or the client cancelled: nothing more is encoded
    call.once("cancelled", () => requests.ended());
    let failing = false;
    const fail = (e: unknown) => {
      if (!streamsOut) return respond(e);
      failing = true; // grpc-js ends the call with the error's status; the handler is not done
      call.emit("error", e);
      failing = false;
    };
    if (streamsIn) decodePushed(call, requests, fail);
    else {
      try {
        call.request = requests.read(call.request as Uint8Array);
      } catch (e) {
        requests.handled();
        return fail(e);
      }
    }
    if (streamsOut) {
      const write = call.write, end = call.end;
      call.write = (chunk, ...rest) => write.call(call, requests.reply(chunk), ...rest);
      call.end = (...rest) => {
        if (!failing) requests.handled();
        return end.apply(call, rest);
      };
    }
    const answer: Respond = (error, value, ...rest) => {
      respond(error, error ? value : requests.reply(value), ...rest);
      requests.handled();
    };
    try {
      own(call, answer);
    } catch (e) {
      requests.handled(); // grpc-js answers UNKNOWN
      throw e;
    }
  };
}

/** Requests of a stream become messages of the call as they arrive; a malformed one fails it and stops them. */
function decodePushed(call: GrpcCall, requests: ServerCall, fail: (e: unknown) => void): void {
  const push = call.push;
  let failed = false;
  call.push = (chunk) => {
    if (chunk === null) return push.call(call, null);
    if (failed) return false;
    try {
      return push.call(call, requests.read(chunk as Uint8Array));
    } catch (e) {
      failed = true;
      fail(e);
      return false;
    }
  };
}

/** A grpc-js client of a generated service (makeGenericClientConstructor over grpcService()). */
export function grpcClient<S extends ServiceType, R extends Receive = "plain">(
  service: S, address: string, credentials: ChannelCredentials, options?: Partial<ChannelOptions> & RpcOptions<R>,
): GrpcClient<S, R> {
  const { receive, ...channel } = options ?? {};
  const Constructor = makeGenericClientConstructor(grpcService(service, { receive }), service.typeName);
  return new Constructor(address, credentials, channel) as unknown as GrpcClient<S, R>;
}
