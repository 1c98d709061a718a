// What every RPC adapter does per method: encode what is sent, decode what is received as plain
// objects or as views. Views of the responses a client receives live in a ring of arenas per
// method, each message taking the next and resetting it: a view stays valid while the
// VIEW_RING - 1 messages after it arrive (reading it later throws StaleViewError). The libraries
// decode ahead of the application (grpc-js fills a Node object stream of 16 before it stops
// reading), so one arena would leave a `for await` loop only stale views. A server's requests are
// not decoded here but by the call that owns them (requests.ts): a ring shared by every call would
// let one client's requests reset the views another call's handler is still reading.
import { Arena } from "../arena.js";
import type { AnyMessageType, Init, PlainOf, ViewOf } from "../message.js";
import type { Method, ServiceType } from "../service.js";

/** How received messages arrive: plain objects that own their data (the default), or views. */
export type Receive = "plain" | "view";

export interface RpcOptions<R extends Receive> {
  receive?: R;
}

/** A received message of type T. */
export type Received<T extends AnyMessageType, R extends Receive> = R extends "view" ? ViewOf<T> : PlainOf<T>;

/** What may be sent as a message of type T: a plain object (fields may be left out) or a view. */
export type Sent<T extends AnyMessageType> = Init<PlainOf<T>> | ViewOf<T>;

type Awaitable<T> = T | Promise<T>;

/**
 * The handlers of service S in the style of nice-grpc and Connect-ES: a request (or an async
 * iterable of them) and the call's context C in, an answer (or an async iterable of them) out.
 */
export type IterableImplementation<S extends ServiceType, R extends Receive, C> = {
  [K in keyof S["methods"]]: S["methods"][K] extends Method<infer I, infer O, infer Kind>
    ? Kind extends "unary" ? (request: Received<I, R>, context: C) => Awaitable<Sent<O>>
    : Kind extends "server_streaming" ? (request: Received<I, R>, context: C) => AsyncIterable<Sent<O>>
    : Kind extends "client_streaming" ? (requests: AsyncIterable<Received<I, R>>, context: C) => Awaitable<Sent<O>>
    : (requests: AsyncIterable<Received<I, R>>, context: C) => AsyncIterable<Sent<O>>
    : never;
};

export function encoder<T extends AnyMessageType>(type: T): (message: Sent<T>) => Uint8Array {
  return (message) => type.encode(message as never);
}

/** How many received views of one method (of one call, on a server) are valid at a time. */
export const VIEW_RING = 32;

/** An arena that grew past this for a large message is released rather than kept (a reset keeps its largest block). */
export const KEEP_BYTES = 1 << 20;

/** An arena for received views: small at first, it grows with the messages. */
export const viewArena = (): Arena => new Arena({ firstBlock: 4096 });

export function decoder<T extends AnyMessageType, R extends Receive>(type: T, receive: R | undefined): (bytes: Uint8Array) => Received<T, R> {
  if (receive !== "view") return (bytes) => type.decode(bytes) as Received<T, R>;
  // made on first use (the runtime may not be started when the definition is), small at first: they grow with the messages
  const ring: Arena[] = [];
  let next = 0;
  return (bytes) => {
    let arena = ring[next];
    if (arena !== undefined && arena.reservedBytes > KEEP_BYTES) arena.release();
    if (arena === undefined || arena.released) ring[next] = arena = viewArena();
    else arena.reset();
    next = (next + 1) % VIEW_RING;
    return type.view(bytes, arena) as Received<T, R>;
  };
}
