// hppproto/grpc-js: a generated service as @grpc/grpc-js takes it. grpcService() gives the
// ServiceDefinition for `server.addService()` and `makeGenericClientConstructor()` (grpcClient()
// calls that), with hppproto encoding and decoding every message.
import { makeGenericClientConstructor, type CallOptions, type ChannelCredentials, type ChannelOptions, type Client, type ClientDuplexStream, type ClientReadableStream, type ClientUnaryCall, type ClientWritableStream, type handleBidiStreamingCall, type handleClientStreamingCall, type handleServerStreamingCall, type handleUnaryCall, type Metadata, type requestCallback, type ServiceDefinition } from "@grpc/grpc-js";
import { safeProperty } from "../schema.js";
import { streamsRequests, streamsResponses, type Method, type ServiceType } from "../service.js";
import { decoder, encoder, type Receive, type Received, type RpcOptions, type Sent } from "./codec.js";

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

/** grpc-js's definition of service S: requests and responses are hppproto messages. */
export type GrpcDefinition<S extends ServiceType, R extends Receive = "plain"> = {
  [K in keyof Methods<S>]: Methods<S>[K] extends Method<infer I, infer O>
    ? GrpcMethodDefinition<Sent<I>, Received<I, R>, Sent<O>, Received<O, R>> : never;
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
 * grpc-js's ServiceDefinition of a generated service. `receive: "view"` hands received messages
 * over as views (each valid while the next 31 messages of the method arrive), else as plain objects.
 *
 *     server.addService(grpcService(Greeter), { sayHello: (call, done) => done(null, { message: call.request.name }) });
 */
export function grpcService<S extends ServiceType, R extends Receive = "plain">(service: S, options?: RpcOptions<R>): GrpcDefinition<S, R> & ServiceDefinition {
  const out: Record<string, GrpcMethodDefinition<unknown, unknown, unknown, unknown>> = {};
  for (const m of Object.values(service.methods)) {
    const encodeRequest = encoder(m.input), encodeResponse = encoder(m.output);
    // the .proto name as a second name only where it is no method's property (rpc Foo and rpc foo)
    // and breaks nothing: an rpc `then` would make clients thenables, `toString` take Object's as its handler
    const alias = Object.hasOwn(service.methods, m.name) || safeProperty(m.name) !== m.name ? undefined : m.name;
    out[m.property] = {
      path: m.path, ...(alias !== undefined && { originalName: alias }),
      requestStream: streamsRequests(m.kind), responseStream: streamsResponses(m.kind),
      requestSerialize: (v) => asBuffer(encodeRequest(v as never)), requestDeserialize: decoder(m.input, options?.receive),
      responseSerialize: (v) => asBuffer(encodeResponse(v as never)), responseDeserialize: decoder(m.output, options?.receive),
    };
  }
  return out as GrpcDefinition<S, R> & ServiceDefinition;
}

/** A grpc-js client of a generated service (makeGenericClientConstructor over grpcService()). */
export function grpcClient<S extends ServiceType, R extends Receive = "plain">(
  service: S, address: string, credentials: ChannelCredentials, options?: Partial<ChannelOptions> & RpcOptions<R>,
): GrpcClient<S, R> {
  const { receive, ...channel } = options ?? {};
  const Constructor = makeGenericClientConstructor(grpcService(service, { receive }), service.typeName);
  return new Constructor(address, credentials, channel) as unknown as GrpcClient<S, R>;
}
