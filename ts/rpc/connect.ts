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
import { encoder, type IterableImplementation, type Receive, type RpcOptions } from "./codec.js";
import { iterableHandler, ServerMethod, type MalformedRequestError } from "./requests.js";

export type { Receive, Received, RpcOptions, Sent } from "./codec.js";

/** The handlers of service S, Connect-ES style: requests received as hppproto messages, responses sent as them. */
export type ConnectImplementation<S extends ServiceType, R extends Receive = "plain"> = IterableImplementation<S, R, HandlerContext>;

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
    const bytes = (message: unknown) => toBinary(d.input, message as never), write = writer(m.output, d.output);
    const streamsIn = streamsRequests(m.kind);
    const handle = iterableHandler(new ServerMethod(m.input, options?.receive), streamsIn, streamsResponses(m.kind), own as (received: unknown, context: unknown) => unknown, (_call, value) => write(value), rejected);
    handlers[d.localName] = (input, context) => {
      refuseJson(context);
      return handle(streamsIn ? mapAsync(input as AsyncIterable<unknown>, bytes) : bytes(input), context);
    };
  }
  return [desc, handlers as unknown as Partial<ServiceImpl<DescService>>]; // (its type for a descriptor made at run time)
}

function refuseJson(context: HandlerContext): void {
  if (/json/i.test(context.requestHeader.get("content-type") ?? "")) {
    throw new ConnectError("hppproto/connect serves the binary protobuf format; this request is JSON", Code.InvalidArgument);
  }
}

/** A request hppproto could not decode, as Connect answers it (Connect's codes are gRPC's numbers). */
const rejected = (e: MalformedRequestError) => new ConnectError(e.details, e.code as Code, undefined, undefined, e.cause);

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
