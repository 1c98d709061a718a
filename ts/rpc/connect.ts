// hppproto/connect: a generated service served by Connect-ES (connect-node, and the Fastify,
// Express and Next.js adapters), which answers Connect, gRPC and gRPC-web clients.
//
// Connect-ES v2 parses and writes messages with @bufbuild/protobuf descriptors (per-method
// serialization, connect-es PR 1799, is not in a release). The bridge hands it descriptors whose
// messages declare no fields: @bufbuild then only splits each message into its top-level fields
// (kept as unknown fields) and joins them again, and hppproto decodes and encodes the message
// itself. That costs a pass over the top-level fields each way instead of a second decode. Binary
// only: a message without fields has no ProtoJSON, so requests in JSON are refused.
import { create, createFileRegistry, fromBinary, toBinary, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { AnyMessageType } from "../message.js";
import { streamsRequests, streamsResponses, type Method, type ServiceType } from "../service.js";
import { decoder, encoder, type Receive, type Received, type RpcOptions, type Sent } from "./codec.js";

export type { Receive, Received, RpcOptions, Sent } from "./codec.js";

type Awaitable<T> = T | Promise<T>;

/** The handlers of service S, Connect-ES style: requests received as hppproto messages, responses sent as them. */
export type ConnectImplementation<S extends ServiceType, R extends Receive = "plain"> = {
  [K in keyof S["methods"]]: S["methods"][K] extends Method<infer I, infer O, infer Kind>
    ? Kind extends "unary" ? (request: Received<I, R>, context: HandlerContext) => Awaitable<Sent<O>>
    : Kind extends "server_streaming" ? (request: Received<I, R>, context: HandlerContext) => AsyncIterable<Sent<O>>
    : Kind extends "client_streaming" ? (requests: AsyncIterable<Received<I, R>>, context: HandlerContext) => Awaitable<Sent<O>>
    : (requests: AsyncIterable<Received<I, R>>, context: HandlerContext) => AsyncIterable<Sent<O>>
    : never;
};

type Handler = (input: unknown, context: HandlerContext) => unknown;

/**
 * What Connect-ES's `router.service()` takes for a generated service: its descriptor and the
 * implementation, wrapped to carry hppproto messages. Methods left out answer UNIMPLEMENTED.
 *
 *     connectNodeAdapter({ routes: (router) => router.service(...connectService(Greeter, { sayHello: (r) => ({ message: r.name }) })) })
 */
export function connectService<S extends ServiceType, R extends Receive = "plain">(
  service: S, implementation: Partial<ConnectImplementation<S, R>>, options?: RpcOptions<R>,
): [DescService, Partial<ServiceImpl<DescService>>] {
  const desc = opaqueService(service);
  const handlers: Record<string, Handler> = {};
  for (const m of Object.values(service.methods) as Method[]) {
    const own = (implementation as Record<string, Handler | undefined>)[m.property];
    if (own === undefined) continue; // Connect answers UNIMPLEMENTED
    const d = desc.methods.find((x) => x.name === m.name)!;
    const read = reader(m.input, d.input, options?.receive), write = writer(m.output, d.output);
    const streamsIn = streamsRequests(m.kind), streamsOut = streamsResponses(m.kind);
    handlers[d.localName] = (input, context) => {
      refuseJson(context);
      const received = streamsIn ? mapAsync(input as AsyncIterable<unknown>, read) : read(input);
      const result = own(received, context);
      return streamsOut ? mapAsync(result as AsyncIterable<unknown>, write) : Promise.resolve(result).then(write);
    };
  }
  return [desc, handlers as unknown as Partial<ServiceImpl<DescService>>]; // (its type for a descriptor made at run time)
}

function refuseJson(context: HandlerContext): void {
  if (/json/i.test(context.requestHeader.get("content-type") ?? "")) {
    throw new ConnectError("hppproto/connect serves the binary protobuf format; this request is JSON", Code.InvalidArgument);
  }
}

/** A received message (fields only as unknown fields) as an hppproto plain object or view. */
function reader(type: AnyMessageType, desc: DescMessage, receive: Receive | undefined): (message: unknown) => unknown {
  const decode = decoder(type, receive);
  return (message) => decode(toBinary(desc, message as never));
}

/** A message to send, encoded by hppproto, as Connect-ES writes it: its fields as unknown fields. */
function writer(type: AnyMessageType, desc: DescMessage): (message: unknown) => unknown {
  const encode = encoder(type);
  return (message) => fromBinary(desc, encode(message as never));
}

async function* mapAsync<T, U>(source: AsyncIterable<T>, f: (x: T) => U): AsyncIterable<U> {
  for await (const x of source) yield f(x);
}

const OPAQUE_PACKAGE = "hppproto.opaque";
const opaqueName = (typeName: string) => typeName.replaceAll(".", "_");

/** The service for @bufbuild/protobuf: its real name and methods, messages without fields. */
function opaqueService(service: ServiceType): DescService {
  const methods = Object.values(service.methods) as Method[];
  const messages = [...new Set(methods.flatMap((m) => [m.input.typeName, m.output.typeName]))];
  const dot = service.typeName.lastIndexOf(".");
  const ref = (t: AnyMessageType) => `.${OPAQUE_PACKAGE}.${opaqueName(t.typeName)}`;
  const registry = createFileRegistry(create(FileDescriptorSetSchema, {
    file: [
      { name: "hppproto/opaque.proto", package: OPAQUE_PACKAGE, syntax: "proto3", messageType: messages.map((name) => ({ name: opaqueName(name) })) },
      {
        name: "hppproto/service.proto", package: dot < 0 ? undefined : service.typeName.slice(0, dot), syntax: "proto3", dependency: ["hppproto/opaque.proto"],
        service: [{
          name: service.typeName.slice(dot + 1),
          method: methods.map((m) => ({
            name: m.name, inputType: ref(m.input), outputType: ref(m.output),
            clientStreaming: streamsRequests(m.kind), serverStreaming: streamsResponses(m.kind),
          })),
        }],
      },
    ],
  }));
  return registry.getService(service.typeName)!;
}
