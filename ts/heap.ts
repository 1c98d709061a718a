// Linear memory, its allocator and its arenas kept in JS: what decoders compiled for a schema
// (compiled.ts) need to run without the codec. The arenas follow the codec's Arena
// (cpp/include/hppproto/arena.hpp: the first block, doubling up to the largest block, the limit,
// an exact-size block when doubling would pass it, reset keeping the newest block, rewind) and lay
// out its cursor, end and newest block where the codec does (abi.ts), and the Limits and Status the
// decoders read and write are the codec's structs: records, errors and budgets come out the same
// as with the codec (test/heap.test.ts).
import {
  ARENA_CUR, ARENA_END, ARENA_HEAD, BUDGET_ALLOWANCE, LIMITS_MAX_AMPLIFICATION, LIMITS_MAX_DEPTH, LIMITS_MAX_ELEMENTS, LIMITS_MAX_MESSAGE_SIZE,
  PATH_ENTRY_SIZE, STATUS_CODE, STATUS_DETAIL, STATUS_MAX_PATH, STATUS_OFFSET, STATUS_PATH, STATUS_PATH_SIZE, STATUS_TRUNCATED,
} from "./abi.js";
import { budgetCap, DEFAULT_LIMITS } from "./limits.js";
import type { Exports } from "./runtime.js";

const PAGE = 65536;
/** Arena::Block on wasm32, its header: the next (older) block, the capacity. */
const BLOCK_HEADER = 8;
/** arena.hpp's max_block_size: blocks stay below 2^31, header included. */
const MAX_BLOCK = 0x7fffffd0;
/** Linear memory's largest size (wasm32), and the largest allocation (its 8-aligned size stays a positive int32). */
const MEMORY_MAX = 65536 * PAGE;
const MAX_ALLOCATION = 0x7ffffff8;
/** A free block taken for less is split when the rest is at least this large. */
const MIN_SPLIT = 64;

/**
 * Free blocks are listed by size class: below 1 KiB by 16 bytes, above by quarters of each power of
 * two (so a block of class k+1 or above holds any size of class k, with at most a quarter wasted
 * when it is split no further).
 */
const CLASSES = 64 + 22 * 4;
function classOf(size: number): number {
  if (size < 1024) return size >>> 4;
  const e = 31 - Math.clz32(size);
  return 64 + (e - 10) * 4 + ((size >>> (e - 2)) & 3);
}
/** The first addresses are never handed out: 0 is the null pointer, and allocations failing return it. */
const RESERVED_LOW = 1024;
/** hppproto::Error codes the arenas report (status.hpp). */
const OUT_OF_MEMORY = 12, MEMORY_BUDGET = 17;

interface ArenaState {
  limit: number;
  firstBlock: number;
  reserved: number;
  failedOnLimit: boolean;
}

export class Heap {
  readonly memory: WebAssembly.Memory;
  /** Where hppproto::Limits and hppproto::Status live. */
  readonly limits: number;
  readonly status: number;
  /** Where memory not yet handed out begins. */
  private top = RESERVED_LOW;
  /** Every live allocation's size. */
  private readonly sizes = new Map<number, number>();
  /** Free blocks: their sizes, and their addresses by size class (classOf). */
  private readonly freeSizes = new Map<number, number>();
  private readonly free: number[][] = Array.from({ length: CLASSES }, () => []);
  private readonly arenas = new Map<number, ArenaState>();
  private u32: Uint32Array;

  /** (A smaller maximum for tests: memory that cannot grow.) */
  constructor(initialPages = 2, maximumPages = 65536) {
    this.memory = new WebAssembly.Memory({ initial: initialPages, maximum: maximumPages });
    this.u32 = new Uint32Array(this.memory.buffer);
    this.limits = this.malloc(20);
    this.status = this.malloc(STATUS_PATH + STATUS_MAX_PATH * PATH_ENTRY_SIZE);
    this.setWord(this.limits + LIMITS_MAX_DEPTH, DEFAULT_LIMITS.maxDepth);
    this.setWord(this.limits + LIMITS_MAX_MESSAGE_SIZE, DEFAULT_LIMITS.maxMessageSize);
    this.setWord(this.limits + LIMITS_MAX_ELEMENTS, DEFAULT_LIMITS.maxElements);
    this.setWord(this.limits + LIMITS_MAX_AMPLIFICATION, DEFAULT_LIMITS.maxAmplification);
  }

  /**
   * The codec's exports for memory, its allocator and arenas, answered by this heap: what a runtime
   * without the codec runs on. WASM passes its i32 arguments signed: each is taken as the unsigned
   * 32-bit value the codec's C++ sees (addresses and sizes past 2 GiB).
   */
  exports(): Exports {
    return {
      memory: this.memory, malloc: (n) => this.malloc(n >>> 0), free: (p) => this.release(p >>> 0), hp_status: () => this.status, hp_limits: () => this.limits,
      hp_arena_new: (limit, first) => this.arenaNew(limit >>> 0, first >>> 0), hp_arena_free: (a) => this.arenaFree(a >>> 0),
      hp_arena_reset: (a) => this.arenaReset(a >>> 0), hp_arena_reserved: (a) => this.arenas.get(a >>> 0)!.reserved,
      hp_arena_alloc: (a, n) => this.arenaAllocate(a >>> 0, n >>> 0), hp_arena_rewind: (a, head, cur) => this.arenaRewind(a >>> 0, head >>> 0, cur >>> 0),
      hp_arena_grow: (a, n, reserved, inputSize, at) => this.arenaGrow(a >>> 0, n >>> 0, reserved >>> 0, inputSize >>> 0, at >>> 0),
    };
  }

  /**
   * size bytes, 8-aligned, or 0 when memory cannot hold them: a free block of a size class that
   * surely holds them (or one of their own class that does), split when much larger; else memory
   * past the top, growing it; else, once free blocks next to each other are merged, either again.
   */
  malloc(size: number): number {
    if (!(size >= 0 && size <= MAX_ALLOCATION)) return 0;
    const n = Math.max(8, (size + 7) & ~7);
    let p = this.takeFree(n) || this.takeTop(n);
    if (p === 0 && this.mergeFree()) p = this.takeFree(n) || this.takeTop(n);
    return p;
  }

  /** Gives an allocation back (an address it did not hand out, or one given back already, is ignored). */
  release(p: number): void {
    const n = this.sizes.get(p);
    if (n === undefined) return;
    this.sizes.delete(p);
    this.addFree(p, n);
  }

  private takeFree(n: number): number {
    const c = classOf(n);
    // blocks of n's own class may be smaller than n: the first that is not, among the last few
    const own = this.free[c]!;
    for (let i = own.length - 1; i >= 0 && i >= own.length - 8; i--) {
      if (this.freeSizes.get(own[i]!)! >= n) return this.use(own.splice(i, 1)[0]!, n);
    }
    for (let k = c + 1; k < CLASSES; k++) {
      const list = this.free[k]!;
      if (list.length > 0) return this.use(list.pop()!, n);
    }
    return 0;
  }

  /** Free block p, taken for n bytes: the rest freed again when it is worth a block of its own. */
  private use(p: number, n: number): number {
    const size = this.freeSizes.get(p)!;
    this.freeSizes.delete(p);
    const split = size - n >= MIN_SPLIT;
    if (split) this.addFree(p + n, size - n);
    this.sizes.set(p, split ? n : size);
    return p;
  }

  private takeTop(n: number): number {
    const p = this.top;
    if (p + n > MEMORY_MAX) return 0;
    const needed = Math.ceil((p + n) / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (needed > 0) {
      try {
        this.memory.grow(needed);
      } catch {
        return 0;
      }
      this.u32 = new Uint32Array(this.memory.buffer);
    }
    this.top = p + n;
    this.sizes.set(p, n);
    return p;
  }

  private addFree(p: number, n: number): void {
    if (p + n === this.top) {
      this.top = p; // the last block: memory past the top again
      return;
    }
    this.freeSizes.set(p, n);
    this.free[classOf(n)]!.push(p);
  }

  /** Merges free blocks that lie next to each other, and a free block ending at the top into it; whether anything changed. */
  private mergeFree(): boolean {
    const blocks = [...this.freeSizes].sort((a, b) => a[0] - b[0]);
    if (blocks.length === 0) return false;
    this.freeSizes.clear();
    for (const list of this.free) list.length = 0;
    const merged: [number, number][] = [];
    for (const [p, n] of blocks) {
      const last = merged[merged.length - 1];
      if (last !== undefined && last[0] + last[1] === p) last[1] += n;
      else merged.push([p, n]);
    }
    for (const [p, n] of merged) this.addFree(p, n);
    return this.freeSizes.size < blocks.length;
  }

  /** Arena(limit, firstBlock): no block until the first allocation. */
  arenaNew(limit: number, firstBlock: number): number {
    const a = this.malloc(16);
    if (a === 0) return 0;
    for (const at of [ARENA_CUR, ARENA_END, ARENA_HEAD]) this.setWord(a + at, 0);
    this.arenas.set(a, { limit, firstBlock: Math.max(firstBlock, 8), reserved: 0, failedOnLimit: false });
    return a;
  }

  arenaFree(a: number): void {
    this.freeBlocks(this.word(a + ARENA_HEAD));
    this.arenas.delete(a);
    this.release(a);
  }

  /** Arena::allocate: size bytes rounded up to 8, or 0 (the limit reached, or memory full). */
  arenaAllocate(a: number, size: number): number {
    if (!(size <= MAX_BLOCK)) return 0; // (the rounding below stays a positive int32)
    const n = (size + 7) & ~7;
    const cur = this.word(a + ARENA_CUR);
    if (n <= this.word(a + ARENA_END) - cur) {
      this.setWord(a + ARENA_CUR, cur + n);
      return cur;
    }
    return this.allocateSlow(a, n);
  }

  /** Arena::reset: every block but the newest freed, and the arena starting over in it. */
  arenaReset(a: number): void {
    const head = this.word(a + ARENA_HEAD);
    if (head === 0) return;
    this.freeBlocks(this.word(head));
    this.setWord(head, 0);
    const capacity = this.word(head + 4);
    this.setWord(a + ARENA_CUR, head + BLOCK_HEADER);
    this.setWord(a + ARENA_END, head + BLOCK_HEADER + capacity);
    this.arenas.get(a)!.reserved = capacity + BLOCK_HEADER;
  }

  /** Arena::rewind: the blocks newer than `head` freed, the cursor back at `cur` (0: the block's start). */
  arenaRewind(a: number, head: number, cur: number): void {
    const state = this.arenas.get(a)!;
    let h = this.word(a + ARENA_HEAD);
    while (h !== 0 && h !== head) {
      const next = this.word(h);
      state.reserved -= BLOCK_HEADER + this.word(h + 4);
      this.release(h);
      h = next;
    }
    this.setWord(a + ARENA_HEAD, h);
    if (h !== 0) {
      this.setWord(a + ARENA_CUR, cur || h + BLOCK_HEADER);
      this.setWord(a + ARENA_END, h + BLOCK_HEADER + this.word(h + 4));
    } else {
      this.setWord(a + ARENA_CUR, 0);
      this.setWord(a + ARENA_END, 0);
    }
  }

  /**
   * wasm/exports.cpp's hp_arena_grow: an allocation from the next block, under the budget of a
   * decode that began when the arena held `reserved` bytes and reads `inputSize`; 0 with the Status
   * failed at offset `at` (memory_budget past the budget, else out_of_memory).
   */
  arenaGrow(a: number, size: number, reserved: number, inputSize: number, at: number): number {
    const state = this.arenas.get(a)!;
    const saved = state.limit;
    const cap = budgetCap(reserved, this.word(this.limits + LIMITS_MAX_AMPLIFICATION), inputSize);
    const inForce = cap < saved;
    if (inForce) state.limit = cap;
    const p = this.arenaAllocate(a, size);
    state.limit = saved;
    if (p !== 0) return p;
    const budget = inForce && state.failedOnLimit;
    this.fail(budget ? MEMORY_BUDGET : OUT_OF_MEMORY, at, budget ? this.word(this.limits + LIMITS_MAX_AMPLIFICATION) : 0);
    return 0;
  }

  private allocateSlow(a: number, size: number): number {
    const state = this.arenas.get(a)!;
    const maxCapacity = MAX_BLOCK - BLOCK_HEADER;
    state.failedOnLimit = false;
    if (size > maxCapacity) return 0;
    if (state.reserved >= state.limit) return this.failOnLimit(state);
    const room = state.limit - state.reserved;
    const head = this.word(a + ARENA_HEAD);
    let capacity = state.firstBlock; // then each block twice the last, up to the cap
    if (head !== 0) {
      const last = this.word(head + 4);
      capacity = last <= Math.floor(maxCapacity / 2) ? last * 2 : maxCapacity;
    }
    if (capacity < size) capacity = size;
    if (BLOCK_HEADER + capacity > room) {
      capacity = size; // the doubling would cross the limit: try the exact size
      if (BLOCK_HEADER + capacity > room) return this.failOnLimit(state);
    }
    const block = this.malloc(BLOCK_HEADER + capacity);
    if (block === 0) return 0;
    this.setWord(block, head);
    this.setWord(block + 4, capacity);
    this.setWord(a + ARENA_HEAD, block);
    state.reserved += BLOCK_HEADER + capacity;
    this.setWord(a + ARENA_CUR, block + BLOCK_HEADER + size);
    this.setWord(a + ARENA_END, block + BLOCK_HEADER + capacity);
    return block + BLOCK_HEADER;
  }

  private failOnLimit(state: ArenaState): number {
    state.failedOnLimit = true;
    return 0;
  }

  private freeBlocks(block: number): void {
    while (block !== 0) {
      const next = this.word(block);
      this.release(block);
      block = next;
    }
  }

  /** Status::fail. */
  private fail(code: number, at: number, detail: number): void {
    this.setWord(this.status + STATUS_CODE, code);
    this.setWord(this.status + STATUS_OFFSET, at);
    this.setWord(this.status + STATUS_DETAIL, detail);
    this.setWord(this.status + STATUS_PATH_SIZE, 0);
    this.setWord(this.status + STATUS_TRUNCATED, 0);
  }

  private word(at: number): number {
    return this.view()[at >>> 2]!;
  }

  private setWord(at: number, v: number): void {
    this.view()[at >>> 2] = v;
  }

  /** The memory as words, again after growth (which detaches the old buffer, whoever grew it). */
  private view(): Uint32Array {
    if (this.u32.length === 0) this.u32 = new Uint32Array(this.memory.buffer);
    return this.u32;
  }
}

