// Services as values: each `service` is generated as a ServiceType listing its methods with their
// request and response message types, which the RPC adapters (hppproto/grpc-js, hppproto/nice-grpc)
// turn into the definitions those libraries take. Nothing here does I/O.
import type { AnyMessageType } from "./message.js";
import { bytesOfChars, safeProperty } from "./schema.js";

/** Whether a method streams requests, responses, both or neither. */
export type MethodKind = "unary" | "server_streaming" | "client_streaming" | "bidi_streaming";

/** descriptor.proto's MethodOptions.idempotency_level. */
export type Idempotency = "unknown" | "no_side_effects" | "idempotent";

/** An RPC method of a service: `I` and `O` are its request and response message types. */
export interface Method<I extends AnyMessageType = AnyMessageType, O extends AnyMessageType = AnyMessageType, K extends MethodKind = MethodKind> {
  /** As in the .proto, e.g. "SayHello". */
  readonly name: string;
  /**
   * The service's property holding it: the name with a lower-case first letter, e.g. "sayHello";
   * "$" added where the name would break objects ("then$", "constructor$", "__proto__$").
   */
  readonly property: string;
  /** The HTTP/2 path gRPC, gRPC-web and Connect call it by: "/pkg.Service/Method". */
  readonly path: string;
  readonly input: I;
  readonly output: O;
  readonly kind: K;
  readonly idempotency: Idempotency;
  /** Custom options (MethodOptions' extension fields) as wire bytes: read them with getOption(). */
  readonly customOptions?: Uint8Array;
  readonly service: ServiceType;
}

/** A service: its methods by property name. */
export class ServiceType<M extends Record<string, Method> = Record<string, Method>> {
  readonly methods: M;

  constructor(
    /** Fully qualified, e.g. "helloworld.Greeter". */
    readonly typeName: string,
    methods: Record<string, MethodSource>,
    /** Custom options (ServiceOptions' extension fields) as wire bytes: read them with getOption(). */
    readonly customOptions?: Uint8Array,
  ) {
    const out: Record<string, Method> = {};
    for (const [property, [name, input, output, kind, idempotency, options]] of Object.entries(methods)) {
      // the adapters and RPC libraries look handlers and client methods up by property: one that
      // Object.prototype has (or then) would find Object's, or make clients thenables
      if (safeProperty(property) !== property) throw new Error(`${typeName}: a method's property cannot be ${JSON.stringify(property)} (generated code names it ${JSON.stringify(safeProperty(property))})`);
      out[property] = {
        name, property, path: `/${typeName}/${name}`, input, output, kind: methodKinds[kind]!, idempotency: idempotencies[idempotency ?? 0]!,
        ...(options !== undefined && { customOptions: bytesOfChars(options) }), service: this,
      };
    }
    this.methods = out as M;
  }
}

/** Kinds by the number generated code gives them: 1 for streamed responses, plus 2 for streamed requests. */
export const methodKinds: readonly MethodKind[] = ["unary", "server_streaming", "client_streaming", "bidi_streaming"];
/** Idempotency levels by the number generated code gives them (descriptor.proto's). */
export const idempotencies: readonly Idempotency[] = ["unknown", "no_side_effects", "idempotent"];

/** Whether a method of this kind streams its requests, and its responses. */
export const streamsRequests = (kind: MethodKind): boolean => kind === "client_streaming" || kind === "bidi_streaming";
export const streamsResponses = (kind: MethodKind): boolean => kind === "server_streaming" || kind === "bidi_streaming";

/**
 * A method as generated code declares it: name, request type, response type, kind (an index of
 * unary, server, client, bidi streaming), idempotency (unknown, no side effects, idempotent) and
 * custom options (one char per byte), the last two only when set.
 */
type MethodSource = [name: string, input: AnyMessageType, output: AnyMessageType, kind: number, idempotency?: number, options?: string];

/** Called by generated code: a service, its methods by property. */
export function service<M extends Record<string, Method>>(typeName: string, methods: Record<string, MethodSource>, options?: string): ServiceType<M> {
  return new ServiceType<M>(typeName, methods, options === undefined ? undefined : bytesOfChars(options));
}
