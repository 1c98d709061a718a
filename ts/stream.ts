// Length-delimited streams read as they arrive: chunks cut anywhere (Node streams, fetch bodies,
// WebSocket frames) are joined, and every run of complete messages is decoded in one call.
import type { Arena } from "./arena.js";
import { DecodeError } from "./errors.js";
import type { AnyMessageType, PlainOf, ViewOf } from "./message.js";
import { limits } from "./limits.js";
import { bytesOf, type BinaryInput } from "./input.js";

/** Complete messages cut from the front of what the reader holds. */
interface Run {
  bytes: Uint8Array;
  messages: number;
  /** Stream offset of bytes[0]. */
  offset: number;
}

/** Reads a length-delimited stream of messages of type M (a generated message type) as its chunks arrive. */
export class DelimitedReader<M extends AnyMessageType> {
  private buf: Uint8Array = new Uint8Array(0);
  private owned = false; // buf is the reader's own, not the caller's chunk
  private start = 0; // first byte not yet consumed
  private end = 0; // end of the bytes held
  private offset = 0; // stream offset of buf[start]
  private count = 0; // messages read so far
  private failure: DecodeError | undefined;

  constructor(private readonly type: M) {}

  /** Plain objects of every message the chunk completes (possibly none). */
  push(chunk: BinaryInput): PlainOf<M>[] {
    const run = this.take(bytesOf(chunk, "DelimitedReader", "push"));
    return run === undefined ? [] : this.decode(run, (b) => this.type.decodeDelimited(b));
  }

  /**
   * Views of every message the chunk completes: without an arena they last until the next view
   * decode on the default arena (see MessageType.view), with one until that arena is reset.
   */
  pushViews(chunk: BinaryInput, arena?: Arena): ViewOf<M>[] {
    const run = this.take(bytesOf(chunk, "DelimitedReader", "pushViews"));
    return run === undefined ? [] : this.decode(run, (b) => this.type.viewDelimited(b, arena));
  }

  /** Bytes held of a message not yet complete. */
  get pending(): number {
    return this.end - this.start;
  }

  /** Messages read so far. */
  get messages(): number {
    return this.count;
  }

  /** The stream has ended: throws TRUNCATED if it stopped inside a message. */
  close(): void {
    if (this.failure) throw this.failure;
    if (this.pending > 0) throw this.fail("TRUNCATED", this.offset + this.pending, this.count);
  }

  /** Appends the chunk and cuts off the complete messages at the front. */
  private take(chunk: Uint8Array): Run | undefined {
    if (this.failure) throw this.failure;
    this.append(chunk);
    const buf = this.buf;
    const limit = limits.maxMessageSize;
    let p = this.start;
    let messages = 0;
    while (p < this.end) {
      let len = 0;
      let q = p;
      let complete = false;
      for (let shift = 0; q < this.end; shift += 7) {
        if (shift === 35) throw this.fail("VARINT_OVERLONG", this.offset + (p - this.start), this.count + messages);
        const b = buf[q++]!;
        len += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) {
          complete = true;
          break;
        }
      }
      if (!complete) break; // the length itself is cut: wait for more
      if (len > limit) throw this.fail("MESSAGE_TOO_LARGE", this.offset + (p - this.start), this.count + messages);
      if (this.end - q < len) break;
      p = q + len;
      messages++;
    }
    const run = messages === 0 ? undefined : { bytes: buf.subarray(this.start, p), messages, offset: this.offset };
    this.offset += p - this.start;
    this.start = p;
    if (!this.owned && this.pending > 0) this.keep();
    return run;
  }

  private decode<R>(run: Run, decode: (bytes: Uint8Array) => R): R {
    try {
      const out = decode(run.bytes);
      this.count += run.messages;
      return out;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      // in stream terms: the offset from the stream's start, the message's number in the stream
      const path = e.path.replace(/\[#(\d+)\]/, (_, i: string) => `[#${this.count + Number(i)}]`);
      this.failure = new DecodeError(e.code, run.offset + e.offset, path);
      throw this.failure;
    }
  }

  private append(chunk: Uint8Array): void {
    if (this.pending === 0) {
      // nothing held: work on the chunk itself; keep() copies what has to wait for more
      this.buf = chunk;
      this.owned = false;
      this.start = 0;
      this.end = chunk.length;
      return;
    }
    const held = this.end - this.start;
    if (this.buf.length < held + chunk.length) {
      const grown = new Uint8Array(Math.max(held + chunk.length, this.buf.length * 2));
      grown.set(this.buf.subarray(this.start, this.end));
      this.buf = grown;
    } else if (this.start > 0) {
      this.buf.copyWithin(0, this.start, this.end);
    }
    this.start = 0;
    this.end = held;
    this.buf.set(chunk, held);
    this.end += chunk.length;
  }

  /** Copies the incomplete tail out of the caller's chunk, which the caller may reuse. */
  private keep(): void {
    const tail = this.buf.slice(this.start, this.end);
    this.buf = new Uint8Array(Math.max(4096, tail.length * 2));
    this.buf.set(tail);
    this.owned = true;
    this.start = 0;
    this.end = tail.length;
  }

  private fail(code: "TRUNCATED" | "VARINT_OVERLONG" | "MESSAGE_TOO_LARGE", offset: number, index: number): DecodeError {
    this.failure = new DecodeError(code, offset, `${this.type.typeName}[#${index}]`);
    return this.failure;
  }
}

/** A source of chunks: a Node stream, any async iterable, or a WHATWG ReadableStream. */
export type ChunkSource = AsyncIterable<BinaryInput> | ReadableStream<BinaryInput>;

/** Every message of a length-delimited stream, as plain objects, as the chunks arrive. */
export async function* decodeStream<M extends AnyMessageType>(type: M, source: ChunkSource): AsyncGenerator<PlainOf<M>> {
  const reader = new DelimitedReader(type);
  for await (const chunk of chunks(source)) yield* reader.push(chunk);
  reader.close();
}

async function* chunks(source: ChunkSource): AsyncGenerator<BinaryInput> {
  if (Symbol.asyncIterator in source) {
    yield* source as AsyncIterable<BinaryInput>;
    return;
  }
  const r = (source as ReadableStream<BinaryInput>).getReader(); // browsers without async-iterable streams
  try {
    for (;;) {
      const { done, value } = await r.read();
      if (done) return;
      yield value;
    }
  } finally {
    r.releaseLock();
  }
}
