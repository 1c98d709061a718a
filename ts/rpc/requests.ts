// What a server's adapter does with each call's requests. Views of them live in arenas the call
// owns, taken from a pool of the method and given back only when the call is done with them: its
// handler has finished and what it answered is encoded (an answer may be, or hold, a request's
// view). No other call can reset them, whatever it sends. A call that streams requests keeps a
// ring of its own (VIEW_RING arenas), so a long stream holds as much as a client-side ring.
// Malformed requests end the call with INVALID_ARGUMENT and the DecodeError's message.
import type { Arena } from "../arena.js";
import { DecodeError } from "../errors.js";
import { clip } from "../excerpt.js";
import type { AnyMessageType } from "../message.js";
import { KEEP_BYTES, VIEW_RING, viewArena, type Receive } from "./codec.js";

/** Idle arenas a method's pool keeps for the next calls; more are released. */
const POOL_IDLE = 64;

/** Longest `details` of a rejected request: a path nested 100 deep would otherwise be kilobytes. */
const MAX_DETAILS = 256;

/** gRPC's and Connect's numbers (they agree) for the statuses a request hppproto cannot decode gets. */
const INVALID_ARGUMENT = 3, RESOURCE_EXHAUSTED = 8;

/**
 * A request that could not be decoded, as the status its call ends with: grpc-js reads `code` and
 * `details` of what a handler reports, nice-grpc recognizes the marker properties of its ServerError.
 */
export class MalformedRequestError extends Error {
  override readonly name = "ServerError";
  readonly code: number;
  readonly details: string;
  constructor(override readonly cause: DecodeError) {
    const details = clip(cause.message, MAX_DETAILS);
    super(details);
    this.details = details;
    this.code = cause.code === "OUT_OF_MEMORY" ? RESOURCE_EXHAUSTED : INVALID_ARGUMENT;
    Object.defineProperty(this, "@@nice-grpc", { value: true });
    Object.defineProperty(this, "@@nice-grpc:ServerError", { value: true });
  }
}

/** The requests of one method of a server: a call each, with a pool of arenas they share. */
export class ServerMethod {
  private readonly idle: Arena[] = [];
  constructor(readonly input: AnyMessageType, readonly receive: Receive | undefined) {}

  call(): ServerCall {
    return new ServerCall(this);
  }

  /** @internal */
  take(): Arena {
    return this.idle.pop() ?? viewArena();
  }

  /** @internal */
  give(arena: Arena): void {
    if (this.idle.length >= POOL_IDLE || arena.reservedBytes > KEEP_BYTES) return arena.release();
    arena.reset();
    this.idle.push(arena);
  }
}

/**
 * One call's requests. Their arenas go back to the pool once the handler is done (`handled()`)
 * and no answer awaits encoding: each `reply()` is encoded (`Reply.encode`), or the call ended
 * (`ended()`: sent or cancelled, after which nothing more is encoded). A handler that never
 * finishes, or a call dropped between its answer and the answer's encoding, keeps them until the
 * call is garbage-collected (Arena's finalizer frees them).
 */
export class ServerCall {
  private readonly arenas: Arena[] = [];
  private next = 0;
  private handlerDone = false;
  private over = false;
  private unencoded = 0;
  private released = false;
  constructor(private readonly method: ServerMethod) {}

  /** A received request, as a view in one of the call's arenas or as a plain object. */
  read(bytes: Uint8Array): unknown {
    try {
      if (this.method.receive !== "view") return this.method.input.decode(bytes);
      return this.method.input.view(bytes, this.arena());
    } catch (e) {
      throw e instanceof DecodeError ? new MalformedRequestError(e) : e;
    }
  }

  /** The next arena of the call's ring (after the call is done, one of its own, left to the garbage collector). */
  private arena(): Arena {
    if (this.released) return viewArena();
    let arena = this.arenas[this.next];
    if (arena === undefined) this.arenas[this.next] = arena = this.method.take();
    else arena.reset();
    this.next = (this.next + 1) % VIEW_RING;
    return arena;
  }

  /** An answer to encode: the call's requests stay valid until it is. */
  reply(value: unknown): unknown {
    if (this.over) return value; // it will not be encoded
    this.unencoded++;
    return new Reply(value, this);
  }

  /** @internal */
  encoded(): void {
    this.unencoded--;
    this.settle();
  }

  /** The handler is done with the requests. */
  handled(): void {
    this.handlerDone = true;
    this.settle();
  }

  /** The call ended: what was not encoded yet never will be. */
  ended(): void {
    this.over = true;
    this.unencoded = 0;
    this.settle();
  }

  private settle(): void {
    if (this.released || !this.handlerDone || this.unencoded > 0) return;
    this.released = true;
    for (const arena of this.arenas) this.method.give(arena);
    this.arenas.length = 0;
  }
}

/** An answer of a server call, on its way to the method's serializer. */
class Reply {
  constructor(readonly value: unknown, private readonly call: ServerCall) {}

  encode<T>(encode: (value: unknown) => T): T {
    try {
      return encode(this.value);
    } finally {
      this.call.encoded();
    }
  }
}

/** A serializer that also takes replies (the adapters' server definitions). */
export function replyEncoder<T>(encode: (value: unknown) => T): (value: unknown) => T {
  return (value) => (value instanceof Reply ? value.encode(encode) : encode(value));
}

/**
 * A handler in the style of nice-grpc and Connect-ES (a request or an async iterable of them in;
 * a promise or an async iterable of answers out) around `own`: requests decoded into the call's
 * arenas, answers passed through `answer`, the call done when `own` settles or its stream ends.
 * `malformed` turns a request that could not be decoded into what the library answers.
 */
export function iterableHandler(
  method: ServerMethod, streamsIn: boolean, streamsOut: boolean,
  own: (received: unknown, context: unknown) => unknown,
  answer: (call: ServerCall, value: unknown) => unknown,
  malformed: (e: MalformedRequestError) => unknown = (e) => e,
): (input: unknown, context: unknown) => unknown {
  const invoke = (call: ServerCall, input: unknown, context: unknown) =>
    own(streamsIn ? readEach(call, input as AsyncIterable<Uint8Array>) : call.read(input as Uint8Array), context);
  const rethrow = (e: unknown) => e instanceof MalformedRequestError ? malformed(e) : e;
  async function answerOnce(call: ServerCall, input: unknown, context: unknown) {
    try {
      return answer(call, await invoke(call, input, context));
    } catch (e) {
      throw rethrow(e);
    } finally {
      call.handled();
    }
  }
  async function* answerEach(call: ServerCall, input: unknown, context: unknown) {
    try {
      for await (const value of invoke(call, input, context) as AsyncIterable<unknown>) yield answer(call, value);
    } catch (e) {
      throw rethrow(e);
    } finally {
      call.handled();
    }
  }
  return (input, context) => {
    const call = method.call();
    // the call is over (answered or cancelled): what is not encoded yet never will be
    (context as { signal?: AbortSignal }).signal?.addEventListener("abort", () => call.ended(), { once: true });
    return streamsOut ? answerEach(call, input, context) : answerOnce(call, input, context);
  };
}

async function* readEach(call: ServerCall, requests: AsyncIterable<Uint8Array>): AsyncIterable<unknown> {
  for await (const bytes of requests) yield call.read(bytes);
}
