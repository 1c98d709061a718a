// hppproto/nice-grpc: a generated service as nice-grpc (Node) and nice-grpc-web (browsers) take it,
// their own definition format, which imports nothing of either library.
import { streamsRequests, streamsResponses, type Method, type ServiceType } from "../service.js";
import { decoder, encoder, type Receive, type Received, type RpcOptions, type Sent } from "./codec.js";

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

/** nice-grpc's definition of service S, for createServer().add(), createClient() and nice-grpc-web's. */
export type NiceGrpcDefinition<S extends ServiceType, R extends Receive = "plain"> = {
  [K in keyof S["methods"]]: S["methods"][K] extends Method<infer I, infer O, infer Kind>
    ? NiceMethodDefinition<Sent<I>, Received<I, R>, Sent<O>, Received<O, R>, Streams<Kind>[0], Streams<Kind>[1]> : never;
};

const idempotency = { unknown: undefined, no_side_effects: "NO_SIDE_EFFECTS", idempotent: "IDEMPOTENT" } as const;

/**
 * nice-grpc's ServiceDefinition of a generated service. `receive: "view"` hands received messages
 * over as views (each valid while the next 31 messages of the method arrive), else as plain objects.
 *
 *     createServer().add(niceGrpcService(Greeter), { async sayHello(request) { return { message: request.name }; } });
 */
export function niceGrpcService<S extends ServiceType, R extends Receive = "plain">(service: S, options?: RpcOptions<R>): NiceGrpcDefinition<S, R> {
  const out: Record<string, NiceMethodDefinition<unknown, unknown, unknown, unknown, boolean, boolean>> = {};
  for (const m of Object.values(service.methods)) {
    const level = idempotency[m.idempotency];
    out[m.property] = {
      path: m.path,
      requestStream: streamsRequests(m.kind), responseStream: streamsResponses(m.kind),
      requestSerialize: encoder(m.input) as (v: unknown) => Uint8Array, requestDeserialize: decoder(m.input, options?.receive),
      responseSerialize: encoder(m.output) as (v: unknown) => Uint8Array, responseDeserialize: decoder(m.output, options?.receive),
      options: level === undefined ? {} : { idempotencyLevel: level },
    };
  }
  return out as NiceGrpcDefinition<S, R>;
}
