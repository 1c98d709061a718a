// Arenas own decoded records and the input bytes they point into. Resetting or releasing one
// invalidates every view into it; views check the arena's generation on each access.
import { ARENA_CUR, ARENA_END, ARENA_HEAD } from "./abi.js";
import { DecodeError } from "./errors.js";
import { byteOffsetOf, detachedInput, lengthOf } from "./input.js";
import { MAX_INPUT } from "./limits.js";
import { runtime, type Runtime } from "./runtime.js";

export interface ArenaOptions {
  /** Most bytes the arena may reserve: an integer from 0 to 4 GiB - 1. Default 4 GiB - 1 (all of linear memory). */
  limit?: number;
  /** Bytes of its first block (later ones double). Default 64 KiB; small for arenas that hold one small message. */
  firstBlock?: number;
}

/**
 * Frees the WASM memory of arenas that became unreachable without release(): a dropped builder
 * or Arena gives its memory back at the next garbage collection instead of keeping it for good.
 */
const unreleased = new FinalizationRegistry<{ rt: Runtime; ptr: number }>(({ rt, ptr }) => rt.exports.hp_arena_free(ptr));

export class Arena {
  /** Bumped by reset() and release(); views compare it with the value they were made under. */
  generation = 0;
  released = false;
  /** @internal address of the C++ Arena */
  readonly ptr: number;
  /** The runtime the arena's memory belongs to (generated views read its zero record). */
  readonly rt: Runtime;

  constructor(options: ArenaOptions = {}) {
    this.rt = runtime();
    const limit = options.limit ?? 0xffffffff;
    const firstBlock = options.firstBlock ?? 64 * 1024;
    // a limit the module's 32-bit argument cannot hold would wrap (2^32 + 100 would be 100)
    if (!(Number.isInteger(limit) && limit >= 0 && limit <= 0xffffffff)) throw new RangeError("hppproto: limit must be an integer from 0 to 4 GiB - 1 bytes");
    if (!(Number.isInteger(firstBlock) && firstBlock >= 8 && firstBlock <= 1 << 30)) throw new RangeError("hppproto: firstBlock must be an integer from 8 bytes to 1 GiB");
    this.ptr = this.rt.exports.hp_arena_new(limit >>> 0, firstBlock) >>> 0;
    this.rt.mem.sync();
    if (this.ptr === 0) throw new DecodeError("OUT_OF_MEMORY", 0, "");
    unreleased.register(this, { rt: this.rt, ptr: this.ptr }, this);
  }

  /** @internal builders' setters running in the arena: it cannot be reset or released meanwhile */
  writing = 0;

  /** Drops everything decoded into the arena, keeping its largest block for reuse. */
  reset(): void {
    this.assertLive();
    this.assertNotWriting();
    this.rt.exports.hp_arena_reset(this.ptr);
    this.generation++;
  }

  /** Frees the arena's memory. The arena and its views cannot be used afterwards. */
  release(): void {
    if (this.released) return;
    this.assertNotWriting();
    unreleased.unregister(this);
    this.rt.exports.hp_arena_free(this.ptr);
    this.released = true;
    this.generation++;
  }

  /** Bytes the arena holds from the allocator. */
  get reservedBytes(): number {
    this.assertLive();
    return this.rt.exports.hp_arena_reserved(this.ptr) >>> 0;
  }

  /**
   * @internal Runs a decode whose input is copied into the arena; if it throws, everything it
   * allocated (the copy included) is given back.
   */
  decodeInto<R>(bytes: Uint8Array, decode: (input: number, size: number) => R, shift = 0): R {
    this.assertLive();
    const u32 = this.rt.mem.u32;
    const cur = u32[(this.ptr + ARENA_CUR) >>> 2]!;
    const head = u32[(this.ptr + ARENA_HEAD) >>> 2]!;
    try {
      const size = lengthOf(bytes); // before the copy, which can detach bytes (an alias of memory)
      return decode(this.copyIn(bytes, size, shift), size);
    } catch (e) {
      this.rt.exports.hp_arena_rewind(this.ptr, head, cur);
      throw e;
    }
  }

  /**
   * Copies input bytes into the arena, `shift` bytes past an 8-byte boundary (see align.ts);
   * bump-allocates in JS when the block has room.
   */
  private copyIn(bytes: Uint8Array, n: number, shift: number): number {
    this.assertLive();
    const mem = this.rt.mem;
    const need = n + shift;
    // checked before rounding: at 2^31 the 32-bit rounding below turns negative and would "fit"
    if (need > MAX_INPUT) throw new DecodeError("MESSAGE_TOO_LARGE", 0, "");
    const size = blockBytes(need);
    if (n === 0) {
      const e = detachedInput(bytes, n);
      mem.sync(); // (as Runtime.stage)
      if (e !== undefined) throw e;
    }
    const p = bump(mem.u32, this.ptr, size);
    if (p !== 0) {
      mem.u8.set(bytes, p + shift);
      return p + shift;
    }
    // a new block may grow memory: input that aliases it (a view's bytes field) is copied from
    // where it was (Memory.copyIn)
    const at = byteOffsetOf(bytes);
    const q = this.rt.exports.hp_arena_alloc(this.ptr, size) >>> 0;
    mem.sync();
    if (q === 0) throw new DecodeError("OUT_OF_MEMORY", 0, "");
    mem.copyIn(bytes, at, n, q + shift);
    return q + shift;
  }

  private assertLive(): void {
    if (this.released) throw new Error("hppproto: arena used after release()");
  }

  private assertNotWriting(): void {
    if (this.writing !== 0) throw new Error("hppproto: a builder's arena cannot be reset or released while one of its setters runs (from a getter of the value being set)");
  }
}

/** An allocation's size as the C++ Arena makes it: rounded up to 8, never 0 (a null pointer means failure). */
export const blockBytes = (n: number): number => ((n + 7) & ~7) || 8;

/**
 * size bytes (a multiple of 8) bump-allocated in JS from the current block of the C++ Arena at
 * `arena`, as Arena::allocate does; 0 when the block has no room (the caller asks WASM for a new one).
 */
export function bump(u32: Uint32Array, arena: number, size: number): number {
  const cur = u32[(arena + ARENA_CUR) >>> 2]!;
  if (cur === 0 || u32[(arena + ARENA_END) >>> 2]! - cur < size) return 0;
  u32[(arena + ARENA_CUR) >>> 2] = cur + size;
  return cur;
}
