// Non-owning views over decoded records. Generated view classes extend MessageView with getters
// that read slots at offsets fixed by the code generator. A view is valid while its arena keeps the
// generation it was made under; every read checks that and throws StaleViewError otherwise.
// Typed arrays and byte subarrays handed out alias linear memory: they share the view's lifetime
// (and a later call that grows memory detaches them); slice() what must outlive it.
import type { Arena } from "./arena.js";
import { StaleViewError } from "./errors.js";
import type { Memory } from "./memory.js";

export type ViewClass<V> = new (arena: Arena, ptr: number) => V;
/** Reads one element (or map key/value) whose slot is at addr. */
export type SlotReader<T> = (m: Memory, addr: number) => T;

// An absent repeated field reads as one shared empty array: nothing to allocate, nothing to write.
const empty = {
  i32s: new Int32Array(0), u32s: new Uint32Array(0), f32s: new Float32Array(0), f64s: new Float64Array(0),
  i64s: new BigInt64Array(0), u64s: new BigUint64Array(0),
};

export abstract class MessageView {
  /** @internal */ readonly $arena: Arena;
  /** @internal (builders re-point themselves: see builder.ts) */ $gen: number;
  /** @internal address of the record */ $ptr: number;

  constructor(arena: Arena, ptr: number) {
    this.$arena = arena;
    this.$gen = arena.generation;
    this.$ptr = ptr;
  }

  /** False once the arena was reset or released; reading then throws. */
  get $valid(): boolean {
    return this.$gen === this.$arena.generation;
  }

  /** @internal memory, after checking that the record is still there */
  $mem(): Memory {
    if (this.$gen !== this.$arena.generation) {
      throw new StaleViewError(this.$arena.released ? "released" : "reset", "$writer" in this ? "builder" : "view");
    }
    return this.$arena.rt.mem;
  }

  /** Presence bit at a bit position from the record start. */
  protected $bit(bit: number): boolean {
    return ((this.$mem().u8[this.$ptr + (bit >>> 3)]! >>> (bit & 7)) & 1) !== 0;
  }
  protected $msg<V>(off: number, cls: ViewClass<V>): V | undefined {
    const p = this.$mem().u32[(this.$ptr + off) >>> 2]!;
    return p === 0 ? undefined : new cls(this.$arena, p);
  }

  private $array(off: number): [Memory, number, number] {
    const m = this.$mem();
    const w = (this.$ptr + off) >>> 2;
    return [m, m.u32[w]!, m.u32[w + 1]!];
  }
  protected $i32s(off: number): Int32Array {
    const [m, p, n] = this.$array(off);
    return n === 0 ? empty.i32s : new Int32Array(m.buffer, p, n);
  }
  protected $u32s(off: number): Uint32Array {
    const [m, p, n] = this.$array(off);
    return n === 0 ? empty.u32s : new Uint32Array(m.buffer, p, n);
  }
  protected $f32s(off: number): Float32Array {
    const [m, p, n] = this.$array(off);
    return n === 0 ? empty.f32s : new Float32Array(m.buffer, p, n);
  }
  protected $f64s(off: number): Float64Array {
    const [m, p, n] = this.$array(off);
    return n === 0 ? empty.f64s : new Float64Array(m.buffer, p, n);
  }
  protected $i64s(off: number): BigInt64Array {
    const [m, p, n] = this.$array(off);
    return n === 0 ? empty.i64s : new BigInt64Array(m.buffer, p, n);
  }
  protected $u64s(off: number): BigUint64Array {
    const [m, p, n] = this.$array(off);
    return n === 0 ? empty.u64s : new BigUint64Array(m.buffer, p, n);
  }
  protected $bools(off: number): boolean[] {
    const [m, p, n] = this.$array(off);
    const out = new Array<boolean>(n);
    for (let i = 0; i < n; i++) out[i] = m.u8[p + i] !== 0;
    return out;
  }
  protected $list<T>(off: number, size: number, read: SlotReader<T>): ListView<T> {
    const [, p, n] = this.$array(off);
    return new ListView(this, p, n, size, read);
  }
  protected $msgs<V>(off: number, cls: ViewClass<V>): ListView<V> {
    const arena = this.$arena;
    return this.$list(off, 4, (m, addr) => new cls(arena, m.u32[addr >>> 2]!));
  }
  protected $map<K, V>(off: number, key: SlotReader<K>, value: SlotReader<V>): MapView<K, V> {
    const [, p, n] = this.$array(off);
    return new MapView(this, p, n, key, value);
  }
}

/** A repeated string, bytes or message field, read element by element on access. */
export class ListView<T> implements Iterable<T> {
  constructor(
    private readonly owner: MessageView,
    private readonly data: number,
    readonly length: number,
    private readonly stride: number,
    private readonly read: SlotReader<T>,
  ) {}

  get(index: number): T {
    if (!(index >= 0 && index < this.length)) throw new RangeError(`hppproto: index ${index} out of range 0..${this.length - 1}`);
    return this.read(this.owner.$mem(), this.data + index * this.stride);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }

  toArray(): T[] {
    const m = this.owner.$mem();
    const out = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.read(m, this.data + i * this.stride);
    return out;
  }
}

/** A map field. Entries are indexed on first use; a key that occurs twice takes its last value. */
export class MapView<K, V> implements Iterable<[K, V]> {
  private index: Map<K, number> | undefined;

  constructor(
    private readonly owner: MessageView,
    private readonly data: number,
    private readonly count: number,
    private readonly key: SlotReader<K>,
    private readonly value: SlotReader<V>,
  ) {}

  private entries_(): Map<K, number> {
    const m = this.owner.$mem();
    if (this.index === undefined) {
      const index = new Map<K, number>();
      for (let i = 0; i < this.count; i++) {
        const entry = m.u32[(this.data + i * 4) >>> 2]!;
        index.set(this.key(m, entry), entry);
      }
      this.index = index;
    }
    return this.index;
  }

  get size(): number {
    return this.entries_().size;
  }
  has(key: K): boolean {
    return this.entries_().has(key);
  }
  get(key: K): V | undefined {
    const entry = this.entries_().get(key);
    return entry === undefined ? undefined : this.value(this.owner.$mem(), entry);
  }
  keys(): IterableIterator<K> {
    return this.entries_().keys();
  }
  *values(): IterableIterator<V> {
    for (const [, v] of this) yield v;
  }
  *entries(): IterableIterator<[K, V]> {
    yield* this;
  }
  *[Symbol.iterator](): Iterator<[K, V]> {
    for (const [k, entry] of this.entries_()) yield [k, this.value(this.owner.$mem(), entry)];
  }
  forEach(fn: (value: V, key: K) => void): void {
    for (const [k, v] of this) fn(v, k);
  }
}
