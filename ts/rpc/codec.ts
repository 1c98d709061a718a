// What every RPC adapter does per method: encode what is sent, decode what is received as plain
// objects or as views. Views of received messages live in an arena per method and direction,
// which each message of that method resets: a view is valid until the next message of the same
// method arrives (reading it later throws StaleViewError), so a stream read in its event handler
// allocates no message objects.
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

export function decoder<T extends AnyMessageType, R extends Receive>(type: T, receive: R | undefined): (bytes: Uint8Array) => Received<T, R> {
  if (receive !== "view") return (bytes) => type.decode(bytes) as Received<T, R>;
  let arena: Arena | undefined; // made on first use: the runtime may not be started when the definition is
  return (bytes) => {
    if (arena === undefined) arena = new Arena();
    else arena.reset();
    return type.view(bytes, arena) as Received<T, R>;
  };
}
