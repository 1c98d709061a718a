// Non-owning views over decoded records. Generated view classes extend MessageView with getters
// that read slots at offsets fixed by the code generator. A view is valid while its arena keeps the
// generation it was made under; every read checks that and throws StaleViewError otherwise.
// Typed arrays and byte subarrays handed out alias linear memory, with no check of their own: they
// show the message only while the view is valid; after its arena is reset, released or collected
// they show whatever that memory holds next. slice() (or $toObject()) what must outlive the view.
import type { Arena } from "./arena.js";
import { StaleViewError } from "./errors.js";
import type { Memory } from "./memory.js";
import type { Runtime } from "./runtime.js";
import { bytesView } from "./plain.js";
import { VIEW_MARK } from "./viewmark.js";

export type ViewClass<V> = new (arena: Arena, ptr: number) => V;
/** A repeated message field's list class, over the slot at address `slot` of a view's record. */
export type ListClass<V> = new (owner: MessageView, m: Memory, slot: number) => MessageList<V>;
/** Reads one element (or map key/value) whose slot is at addr. */
export type SlotReader<T> = (m: Memory, addr: number) => T;

// An absent repeated field reads as one shared empty array: nothing to allocate, nothing to write.
const empty = {
  i32s: new Int32Array(0), u32s: new Uint32Array(0), f32s: new Float32Array(0), f64s: new Float64Array(0),
  i64s: new BigInt64Array(0), u64s: new BigUint64Array(0),
};

export abstract class MessageView {
  // What generated getters read (so declared in the types); not an API for applications.
  /** The arena holding the record. */ readonly $arena: Arena;
  /** The arena's generation the record belongs to (builders re-point themselves: see builder.ts). */ $gen: number;
  /** Address of the record. */ $ptr: number;
  /** The runtime's memory (one object for the runtime's life: growth refreshes its arrays). */ readonly $m: Memory;

  constructor(arena: Arena, ptr: number) {
    this.$arena = arena;
    this.$gen = arena.generation;
    this.$ptr = ptr;
    this.$m = arena.rt.mem;
  }

  /** @internal what isView() looks for: on the prototype, so views carry nothing more */
  get [VIEW_MARK](): true {
    return true;
  }

  /** False once the arena was reset or released; reading then throws. */
  get $valid(): boolean {
    return this.$gen === this.$arena.generation;
  }

  /** @internal memory, after checking that the record is still there */
  $mem(): Memory {
    if (this.$gen !== this.$arena.generation) this.$stale();
    return this.$m;
  }

  /** The error of a view whose record is gone (generated getters throw it). */
  $stale(): never {
    throw new StaleViewError(this.$arena.released ? "released" : "reset", "$writer" in this ? "builder" : "view");
  }

  /** Presence bit at a bit position from the record start. */
  protected $bit(bit: number): boolean {
    return ((this.$mem().u8[this.$ptr + (bit >>> 3)]! >>> (bit & 7)) & 1) !== 0;
  }
  protected $msg<V>(off: number, cls: ViewClass<V>): V | undefined {
    const p = this.$mem().u32[(this.$ptr + off) >>> 2]!;
    return p === 0 ? undefined : new cls(this.$arena, p);
  }
  /** The record as a plain object, read by `read` (the message type's reader). */
  protected $plain<T>(read: (m: Memory, p: number, rt: Runtime) => T): T {
    return read(this.$mem(), this.$ptr, this.$arena.rt);
  }

  // A repeated field's slot is (data pointer, count) at word w of memory.
  protected $i32s(off: number): Int32Array {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, n = m.u32[w + 1]!;
    return n === 0 ? empty.i32s : new Int32Array(m.buffer, m.u32[w]!, n);
  }
  protected $u32s(off: number): Uint32Array {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, n = m.u32[w + 1]!;
    return n === 0 ? empty.u32s : new Uint32Array(m.buffer, m.u32[w]!, n);
  }
  protected $f32s(off: number): Float32Array {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, n = m.u32[w + 1]!;
    return n === 0 ? empty.f32s : new Float32Array(m.buffer, m.u32[w]!, n);
  }
  protected $f64s(off: number): Float64Array {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, n = m.u32[w + 1]!;
    return n === 0 ? empty.f64s : new Float64Array(m.buffer, m.u32[w]!, n);
  }
  protected $i64s(off: number): BigInt64Array {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, n = m.u32[w + 1]!;
    return n === 0 ? empty.i64s : new BigInt64Array(m.buffer, m.u32[w]!, n);
  }
  protected $u64s(off: number): BigUint64Array {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, n = m.u32[w + 1]!;
    return n === 0 ? empty.u64s : new BigUint64Array(m.buffer, m.u32[w]!, n);
  }
  protected $bools(off: number): boolean[] {
    const m = this.$mem(), w = (this.$ptr + off) >>> 2, p = m.u32[w]!, n = m.u32[w + 1]!;
    const out = new Array<boolean>(n);
    for (let i = 0; i < n; i++) out[i] = m.u8[p + i] !== 0;
    return out;
  }
  protected $strings(off: number): ListView<string> {
    return new StringList(this, this.$mem(), this.$ptr + off);
  }
  protected $bytesList(off: number): ListView<Uint8Array> {
    return new BytesList(this, this.$mem(), this.$ptr + off);
  }
  protected $map<K, V>(off: number, key: SlotReader<K>, value: SlotReader<V>): MapView<K, V> {
    const u32 = this.$mem().u32, w = (this.$ptr + off) >>> 2;
    return new MapView(this, u32[w]!, u32[w + 1]!, key, value);
  }
}

/**
 * A repeated string, bytes or message field, read element by element on access. One subclass per
 * element kind, so that each get() is a monomorphic call site.
 */
export abstract class ListView<T> implements Iterable<T> {
  /** Address of the first element's slot (generated list classes read it). */
  protected readonly data: number;
  readonly length: number;

  /**
   * The repeated field whose slot is at `slot` in m, a field of owner's record. Callers read m and
   * the address from owner themselves: done here, for every list class, those reads saw every view
   * class and went polymorphic (reading a map tile's views took 7-9% longer).
   */
  constructor(/** the view whose field this is (generated list classes read it) */ protected readonly owner: MessageView, m: Memory, slot: number) {
    const u32 = m.u32, w = slot >>> 2;
    this.data = u32[w]!;
    this.length = u32[w + 1]!;
  }

  /** @internal the element at index, known to be in range */
  protected abstract element(m: Memory, index: number): T;

  /** The element at `index`; an index that is no integer in 0..length-1 is a RangeError. */
  get(index: number): T {
    // (a fraction would read a slot across two elements: a string or bytes of whatever memory it points to)
    if ((index >>> 0) !== index || index >= this.length) throw this.outOfRange(index);
    return this.element(this.owner.$mem(), index);
  }

  /** As Array's at(): the element at `index`, counted from the end when negative; undefined out of range. */
  at(index: number): T | undefined {
    const i = Math.trunc(index) || 0; // (NaN as 0, as Array's)
    const at = i < 0 ? i + this.length : i;
    return at >= 0 && at < this.length ? this.get(at) : undefined;
  }

  /** @internal */
  protected outOfRange(index: number): RangeError {
    return new RangeError(`hppproto: index ${index} out of range 0..${this.length - 1}`);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }

  toArray(): T[] {
    const m = this.owner.$mem();
    const out = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.element(m, i);
    return out;
  }
}

class StringList extends ListView<string> {
  protected element(m: Memory, index: number): string {
    return m.strAt(this.data + index * 8);
  }
}

class BytesList extends ListView<Uint8Array> {
  protected element(m: Memory, index: number): Uint8Array {
    return bytesView(m, this.data + index * 8);
  }
}

/**
 * A repeated message field. Generated code subclasses it per message type with a get() of its own
 * (see list$ in generated modules): one shared get() would see every message type's views and go
 * megamorphic, and construct each element through a generic call.
 */
export abstract class MessageList<V> extends ListView<V> {
  abstract override get(index: number): V;

  protected element(_m: Memory, index: number): V {
    return this.get(index);
  }

  /** get()'s failure (generated list classes call it): an index out of range, or a view that is no longer valid. */
  protected $invalid(index: number): never {
    this.owner.$mem(); // throws StaleViewError
    throw this.outOfRange(index);
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
