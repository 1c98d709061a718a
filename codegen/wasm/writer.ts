// A WebAssembly binary writer: enough of the format for the decoders hppproto-gen compiles from a
// schema (codegen/wasm/decoder.ts), written by the generator itself so that users need no native
// toolchain. Functions are written as instruction sequences (Code) whose branches name their target
// block instead of counting nesting depths; a Module gathers types, imports, functions, globals and
// exports into the sections of the binary format, in the order the format requires.

/** Value types. */
export enum Type { I32 = 0x7f, I64 = 0x7e, F32 = 0x7d, F64 = 0x7c }

/** Unsigned LEB128 of a 32-bit value. */
export function uleb(out: number[], value: number): void {
  let v = value >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
}

/** Signed LEB128 of any 64-bit integer (or a 32-bit number). */
export function sleb(out: number[], value: bigint | number): void {
  let v = BigInt(value);
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n; // arithmetic: the sign stays
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return;
  }
}

const utf8 = new TextEncoder();
function name(out: number[], text: string): void {
  const bytes = utf8.encode(text);
  uleb(out, bytes.length);
  out.push(...bytes);
}

/** A block, loop or if a branch can name as its target. */
export interface Label {
  readonly loop: boolean;
}

/** The memory access of a load or store: natural alignment (log2) and a constant offset. */
const memarg = (out: number[], align: number, offset: number) => {
  uleb(out, align);
  uleb(out, offset);
};

/** Load and store opcodes with their natural alignment (log2 of the access width). */
const loads = {
  i32: [0x28, 2], i64: [0x29, 3], f32: [0x2a, 2], f64: [0x2b, 3],
  i32_8s: [0x2c, 0], i32_8u: [0x2d, 0], i32_16s: [0x2e, 1], i32_16u: [0x2f, 1],
  i64_8s: [0x30, 0], i64_8u: [0x31, 0], i64_16s: [0x32, 1], i64_16u: [0x33, 1], i64_32s: [0x34, 2], i64_32u: [0x35, 2],
} as const;
const stores = {
  i32: [0x36, 2], i64: [0x37, 3], f32: [0x38, 2], f64: [0x39, 3],
  i32_8: [0x3a, 0], i32_16: [0x3b, 1], i64_8: [0x3c, 0], i64_16: [0x3d, 1], i64_32: [0x3e, 2],
} as const;
export type LoadKind = keyof typeof loads;
export type StoreKind = keyof typeof stores;

/** Numeric instructions without immediates, by their text-format names. */
const simple = {
  unreachable: 0x00, nop: 0x01, return: 0x0f, drop: 0x1a, select: 0x1b,
  "i32.eqz": 0x45, "i32.eq": 0x46, "i32.ne": 0x47, "i32.lt_s": 0x48, "i32.lt_u": 0x49, "i32.gt_s": 0x4a, "i32.gt_u": 0x4b,
  "i32.le_s": 0x4c, "i32.le_u": 0x4d, "i32.ge_s": 0x4e, "i32.ge_u": 0x4f,
  "i64.eqz": 0x50, "i64.eq": 0x51, "i64.ne": 0x52, "i64.lt_s": 0x53, "i64.lt_u": 0x54, "i64.gt_s": 0x55, "i64.gt_u": 0x56,
  "i64.le_s": 0x57, "i64.le_u": 0x58, "i64.ge_s": 0x59, "i64.ge_u": 0x5a,
  "i32.clz": 0x67, "i32.ctz": 0x68, "i32.popcnt": 0x69, "i32.add": 0x6a, "i32.sub": 0x6b, "i32.mul": 0x6c,
  "i32.div_s": 0x6d, "i32.div_u": 0x6e, "i32.rem_s": 0x6f, "i32.rem_u": 0x70, "i32.and": 0x71, "i32.or": 0x72,
  "i32.xor": 0x73, "i32.shl": 0x74, "i32.shr_s": 0x75, "i32.shr_u": 0x76, "i32.rotl": 0x77, "i32.rotr": 0x78,
  "i64.clz": 0x79, "i64.ctz": 0x7a, "i64.popcnt": 0x7b, "i64.add": 0x7c, "i64.sub": 0x7d, "i64.mul": 0x7e,
  "i64.div_s": 0x7f, "i64.div_u": 0x80, "i64.rem_s": 0x81, "i64.rem_u": 0x82, "i64.and": 0x83, "i64.or": 0x84,
  "i64.xor": 0x85, "i64.shl": 0x86, "i64.shr_s": 0x87, "i64.shr_u": 0x88, "i64.rotl": 0x89, "i64.rotr": 0x8a,
  "i32.wrap_i64": 0xa7, "i64.extend_i32_s": 0xac, "i64.extend_i32_u": 0xad,
} as const;
export type SimpleOp = keyof typeof simple;

/**
 * A function body's instructions. Structured control names its targets: block(), loop() and if_()
 * return a Label that br/br_if/br_table take, and the writer turns it into the relative depth the
 * format wants (so inserting a block never silently retargets a branch).
 */
export class Code {
  readonly bytes: number[] = [];
  private readonly labels: Label[] = [];

  /** Instructions without immediates, in order. */
  op(...ops: SimpleOp[]): this {
    for (const o of ops) this.bytes.push(simple[o]);
    return this;
  }

  i32(value: number): this {
    this.bytes.push(0x41);
    sleb(this.bytes, value | 0);
    return this;
  }

  i64(value: bigint | number): this {
    this.bytes.push(0x42);
    sleb(this.bytes, BigInt.asIntN(64, BigInt(value)));
    return this;
  }

  get(local: number): this {
    return this.indexed(0x20, local);
  }
  set(local: number): this {
    return this.indexed(0x21, local);
  }
  tee(local: number): this {
    return this.indexed(0x22, local);
  }
  globalGet(global: number): this {
    return this.indexed(0x23, global);
  }
  globalSet(global: number): this {
    return this.indexed(0x24, global);
  }
  call(func: number): this {
    return this.indexed(0x10, func);
  }

  load(kind: LoadKind, offset = 0, align: number = loads[kind][1]): this {
    this.bytes.push(loads[kind][0]);
    memarg(this.bytes, align, offset);
    return this;
  }

  store(kind: StoreKind, offset = 0, align: number = stores[kind][1]): this {
    this.bytes.push(stores[kind][0]);
    memarg(this.bytes, align, offset);
    return this;
  }

  /** memory.fill (bulk memory): [dest, value, size] on the stack. */
  memoryFill(): this {
    this.bytes.push(0xfc, 11, 0);
    return this;
  }

  /** memory.copy (bulk memory): [dest, source, size] on the stack. */
  memoryCopy(): this {
    this.bytes.push(0xfc, 10, 0, 0);
    return this;
  }

  /** Opens a block; `type` is its result (a value type, or a type index for several). */
  block(type?: BlockType): Label {
    return this.open(0x02, type, false);
  }
  loop(type?: BlockType): Label {
    return this.open(0x03, type, true);
  }
  /** Pops a condition and opens the then-arm. */
  if_(type?: BlockType): Label {
    return this.open(0x04, type, false);
  }
  else_(): this {
    this.bytes.push(0x05);
    return this;
  }
  /** Closes the innermost open block, loop or if. */
  end(): this {
    if (this.labels.pop() === undefined) throw new Error("wasm writer: end() without an open block");
    this.bytes.push(0x0b);
    return this;
  }

  br(target: Label): this {
    return this.indexed(0x0c, this.depth(target));
  }
  br_if(target: Label): this {
    return this.indexed(0x0d, this.depth(target));
  }
  /** Pops an index: branches to targets[index], or to fallback when it is past the end. */
  br_table(targets: readonly Label[], fallback: Label): this {
    this.bytes.push(0x0e);
    uleb(this.bytes, targets.length);
    for (const t of targets) uleb(this.bytes, this.depth(t));
    uleb(this.bytes, this.depth(fallback));
    return this;
  }

  /** Blocks still open: a finished body has none. */
  get openBlocks(): number {
    return this.labels.length;
  }

  private indexed(opcode: number, index: number): this {
    this.bytes.push(opcode);
    uleb(this.bytes, index);
    return this;
  }

  private open(opcode: number, type: BlockType | undefined, loop: boolean): Label {
    this.bytes.push(opcode);
    if (type === undefined) this.bytes.push(0x40);
    else if (typeof type === "number") this.bytes.push(type);
    else sleb(this.bytes, type.index);
    const label = { loop };
    this.labels.push(label);
    return label;
  }

  private depth(target: Label): number {
    const i = this.labels.lastIndexOf(target);
    if (i < 0) throw new Error("wasm writer: branch to a block that is not open");
    return this.labels.length - 1 - i;
  }
}

/** A block's result: one value type, or a function type's index (parameters and several results). */
export type BlockType = Type | { readonly index: number };

interface FunctionDef {
  readonly type: number;
  locals: Type[];
  code?: Code;
}

type ExportKind = "func" | "memory" | "global";
const exportKinds: Record<ExportKind, number> = { func: 0, memory: 2, global: 3 };

/**
 * A module under construction. Imported functions take the first function indices, as in the
 * format, so imports come before the first function is declared; functions are declared first
 * (their index is known, for calls and recursion) and given bodies later.
 */
export class Module {
  private readonly types: string[] = [];
  private readonly typeBytes: number[][] = [];
  private readonly imports: number[][] = [];
  private importedFunctions = 0;
  private importedGlobals = 0;
  private readonly functions: FunctionDef[] = [];
  private readonly globals: number[][] = [];
  private readonly exports: number[][] = [];
  private readonly data: { offset: number; bytes: Uint8Array }[] = [];
  private memory: { min: number; max?: number } | undefined;

  /** The index of the function type params -> results (one entry per distinct signature). */
  type(params: readonly Type[], results: readonly Type[]): number {
    const bytes = [0x60];
    uleb(bytes, params.length);
    bytes.push(...params);
    uleb(bytes, results.length);
    bytes.push(...results);
    const key = bytes.join(",");
    const known = this.types.indexOf(key);
    if (known >= 0) return known;
    this.types.push(key);
    this.typeBytes.push(bytes);
    return this.types.length - 1;
  }

  importFunction(module: string, field: string, params: readonly Type[], results: readonly Type[]): number {
    if (this.functions.length > 0) throw new Error("wasm writer: functions are imported before any is declared");
    this.importEntry(module, field, [0x00, ...ulebBytes(this.type(params, results))]);
    return this.importedFunctions++;
  }

  /** Linear memory (index 0) from the importer: at least `min` 64 KiB pages. */
  importMemory(module: string, field: string, min: number, max?: number): void {
    this.importEntry(module, field, [0x02, ...limits(min, max)]);
  }

  importGlobal(module: string, field: string, type: Type, mutable = false): number {
    if (this.globals.length > 0) throw new Error("wasm writer: globals are imported before any is defined");
    this.importEntry(module, field, [0x03, type, mutable ? 1 : 0]);
    return this.importedGlobals++;
  }

  /** A memory of the module's own (index 0), for modules that import none. */
  defineMemory(min: number, max?: number): void {
    this.memory = { min, max };
  }

  /** A global with a constant initial value; returns its index. */
  global(type: Type, mutable: boolean, init: number | bigint): number {
    const bytes = [type, mutable ? 1 : 0];
    const c = new Code();
    if (type === Type.I64) c.i64(init);
    else if (type === Type.I32) c.i32(Number(init));
    else throw new Error("wasm writer: only integer globals");
    bytes.push(...c.bytes, 0x0b);
    this.globals.push(bytes);
    return this.importedGlobals + this.globals.length - 1;
  }

  /** Declares a function; its body comes with define(). Returns its index. */
  declare(params: readonly Type[], results: readonly Type[]): number {
    this.functions.push({ type: this.type(params, results), locals: [] });
    return this.importedFunctions + this.functions.length - 1;
  }

  /** Gives a declared function its extra locals (indices after the parameters) and body. */
  define(index: number, locals: readonly Type[], code: Code): void {
    const f = this.functions[index - this.importedFunctions];
    if (!f || f.code) throw new Error(`wasm writer: function ${index} is not declared, or already defined`);
    if (code.openBlocks !== 0) throw new Error(`wasm writer: function ${index} ends with ${code.openBlocks} blocks open`);
    f.locals = [...locals];
    f.code = code;
  }

  /** declare() and define() at once. */
  func(params: readonly Type[], results: readonly Type[], locals: readonly Type[], code: Code): number {
    const index = this.declare(params, results);
    this.define(index, locals, code);
    return index;
  }

  export(field: string, kind: ExportKind, index: number): void {
    const bytes: number[] = [];
    name(bytes, field);
    bytes.push(exportKinds[kind]);
    uleb(bytes, index);
    this.exports.push(bytes);
  }

  /** Bytes placed in memory at instantiation (an active data segment). */
  dataAt(offset: number, bytes: Uint8Array): void {
    this.data.push({ offset, bytes });
  }

  bytes(): Uint8Array {
    const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
    section(out, 1, this.typeBytes);
    section(out, 2, this.imports);
    section(out, 3, this.functions.map((f) => ulebBytes(f.type)));
    if (this.memory) section(out, 5, [limits(this.memory.min, this.memory.max)]);
    section(out, 6, this.globals);
    section(out, 7, this.exports);
    if (this.data.length > 0) section(out, 12, [], this.data.length); // data count: memory.copy/fill validate without it, data.drop would not
    section(out, 10, this.functions.map((f, i) => body(f, i + this.importedFunctions)));
    section(out, 11, this.data.map(({ offset, bytes }) => {
      const entry = [0x00, ...new Code().i32(offset).bytes, 0x0b];
      uleb(entry, bytes.length);
      entry.push(...bytes);
      return entry;
    }));
    return Uint8Array.from(out);
  }

  private importEntry(module: string, field: string, desc: number[]): void {
    const bytes: number[] = [];
    name(bytes, module);
    name(bytes, field);
    bytes.push(...desc);
    this.imports.push(bytes);
  }
}

function ulebBytes(v: number): number[] {
  const out: number[] = [];
  uleb(out, v);
  return out;
}

function limits(min: number, max?: number): number[] {
  const out = [max === undefined ? 0 : 1];
  uleb(out, min);
  if (max !== undefined) uleb(out, max);
  return out;
}

/** A section: its id, its size, then a vector of entries (or only a count, for the data count section). */
function section(out: number[], id: number, entries: readonly number[][], count = entries.length): void {
  if (count === 0) return;
  const content: number[] = [];
  uleb(content, count);
  for (const e of entries) for (const b of e) content.push(b);
  out.push(id);
  uleb(out, content.length);
  for (const b of content) out.push(b);
}

/** A function body: its locals as runs of one type, then its code and the final end. */
function body(f: FunctionDef, index: number): number[] {
  if (!f.code) throw new Error(`wasm writer: function ${index} was declared but never defined`);
  const runs: [number, Type][] = [];
  for (const t of f.locals) {
    const last = runs[runs.length - 1];
    if (last && last[1] === t) last[0]++;
    else runs.push([1, t]);
  }
  const out: number[] = [];
  uleb(out, runs.length);
  for (const [n, t] of runs) {
    uleb(out, n);
    out.push(t);
  }
  for (const b of f.code.bytes) out.push(b);
  out.push(0x0b);
  const sized: number[] = [];
  uleb(sized, out.length);
  for (const b of out) sized.push(b);
  return sized;
}
