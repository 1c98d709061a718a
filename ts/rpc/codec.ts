// What every RPC adapter does per method: encode what is sent, decode what is received as plain
// objects or as views. Views of received messages live in a ring of arenas per method and
// direction, each message taking the next and resetting it: a view stays valid while the
// VIEW_RING - 1 messages after it arrive (reading it later throws StaleViewError). The libraries
// decode ahead of the application (grpc-js fills a Node object stream of 16 before it stops
// reading), so one arena would leave a `for await` loop only stale views.
import { Arena } from "../arena.js";
import type { AnyMessageType, Init, PlainOf, ViewOf } from "../message.js";

/** How received messages arrive: plain objects that own their data (the default), or views. */
export type Receive = "plain" | "view";

export interface RpcOptions<R extends Receive> {
  receive?: R;
}

/** A received message of type T. */
export type Received<T extends AnyMessageType, R extends Receive> = R extends "view" ? ViewOf<T> : PlainOf<T>;

/** What may be sent as a message of type T: a plain object (fields may be left out) or a view. */
export type Sent<T extends AnyMessageType> = Init<PlainOf<T>> | ViewOf<T>;

export function encoder<T extends AnyMessageType>(type: T): (message: Sent<T>) => Uint8Array {
  return (message) => type.encode(message as never);
}

/** How many received views of one method are valid at a time. */
export const VIEW_RING = 32;

/** An arena that grew past this for a large message is released rather than kept (a reset keeps its largest block). */
const KEEP_BYTES = 1 << 20;

export function decoder<T extends AnyMessageType, R extends Receive>(type: T, receive: R | undefined): (bytes: Uint8Array) => Received<T, R> {
  if (receive !== "view") return (bytes) => type.decode(bytes) as Received<T, R>;
  // made on first use (the runtime may not be started when the definition is), small at first: they grow with the messages
  const ring: Arena[] = [];
  let next = 0;
  return (bytes) => {
    let arena = ring[next];
    if (arena !== undefined && arena.reservedBytes > KEEP_BYTES) arena.release();
    if (arena === undefined || arena.released) ring[next] = arena = new Arena({ firstBlock: 4096 });
    else arena.reset();
    next = (next + 1) % VIEW_RING;
    return type.view(bytes, arena) as Received<T, R>;
  };
}
