// The WebAssembly writer the code generator compiles decoders with (codegen/wasm/writer.ts): its
// encodings against the format's own examples, and modules that validate and compute known results.
import { describe, expect, it } from "vitest";
import { Code, Module, sleb, Type, uleb } from "../dist/codegen/wasm/writer.js";

const { I32, I64 } = Type;
const leb = (write: (out: number[], v: never) => void, v: number | bigint) => {
  const out: number[] = [];
  write(out, v as never);
  return out;
};

function instantiate(m: Module, imports: WebAssembly.Imports = {}): Record<string, any> {
  const bytes = m.bytes();
  expect(WebAssembly.validate(bytes)).toBe(true);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports;
}

/** A module exporting one function `f`. */
function one(params: Type[], results: Type[], locals: Type[], code: Code) {
  const m = new Module();
  m.export("f", "func", m.func(params, results, locals, code));
  return instantiate(m).f as (...args: unknown[]) => any;
}

describe("LEB128", () => {
  it("writes the format's examples", () => {
    expect(leb(uleb, 0)).toEqual([0]);
    expect(leb(uleb, 127)).toEqual([0x7f]);
    expect(leb(uleb, 128)).toEqual([0x80, 0x01]);
    expect(leb(uleb, 624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(leb(uleb, 0xffffffff)).toEqual([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(leb(sleb, 0)).toEqual([0]);
    expect(leb(sleb, -1)).toEqual([0x7f]);
    expect(leb(sleb, 63)).toEqual([0x3f]);
    expect(leb(sleb, 64)).toEqual([0xc0, 0x00]);
    expect(leb(sleb, -64)).toEqual([0x40]);
    expect(leb(sleb, -65)).toEqual([0xbf, 0x7f]);
    expect(leb(sleb, -123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(leb(sleb, -(2n ** 63n))).toEqual([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f]);
  });

  it("constants round-trip through the engine at every width", () => {
    const i32s = [0, 1, -1, 63, 64, -64, -65, 127, 128, 2 ** 31 - 1, -(2 ** 31), 123456789];
    for (const v of i32s) expect(one([], [I32], [], new Code().i32(v))()).toBe(v);
    const i64s = [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 0x0123456789abcdefn, -(2n ** 40n) + 3n];
    for (const v of i64s) expect(one([], [I64], [], new Code().i64(v))()).toBe(v);
    expect(one([], [I64], [], new Code().i64(2n ** 64n - 1n))()).toBe(-1n); // the low 64 bits
  });
});

describe("functions", () => {
  it("arithmetic and comparisons of both widths", () => {
    const add = one([I32, I32], [I32], [], new Code().get(0).get(1).op("i32.add"));
    expect(add(2, 40)).toBe(42);
    expect(add(0x7fffffff, 1)).toBe(-0x80000000);
    const ltu = one([I32, I32], [I32], [], new Code().get(0).get(1).op("i32.lt_u"));
    expect([ltu(1, 2), ltu(-1, 2), ltu(2, -1)]).toEqual([1, 0, 1]);
    const zigzag64 = one([I64], [I64], [], new Code().get(0).i64(1).op("i64.shr_u").i64(0).get(0).i64(1).op("i64.and", "i64.sub", "i64.xor"));
    expect([0n, 1n, 2n, 3n, 0xfffffffffffffffen, -1n].map((v) => zigzag64(v))).toEqual([0n, -1n, 1n, -2n, 9223372036854775807n, -9223372036854775808n]);
    const widen = one([I32], [I64], [], new Code().get(0).op("i64.extend_i32_u"));
    expect(widen(-1)).toBe(0xffffffffn);
    const popcount = one([I64], [I32], [], new Code().get(0).op("i64.popcnt", "i32.wrap_i64"));
    expect(popcount(0x8080808080808080n)).toBe(8);
  });

  it("loops, branches and locals: the sum 1..n", () => {
    const c = new Code();
    const done = c.block();
    const again = c.loop();
    c.get(0).op("i32.eqz").br_if(done);
    c.get(1).get(0).op("i32.add").set(1);
    c.get(0).i32(1).op("i32.sub").set(0);
    c.br(again).end().end().get(1);
    const sum = one([I32], [I32], [I32], c);
    expect(sum(100)).toBe(5050);
    expect(sum(0)).toBe(0);
  });

  it("br_table picks targets by index, the default past the end; if/else with a result", () => {
    const c = new Code();
    const outer = c.block();
    const b2 = c.block();
    const b1 = c.block();
    const b0 = c.block();
    c.get(0).br_table([b0, b1, b2, b1], outer);
    c.end().i32(10).op("return");
    c.end().i32(11).op("return");
    c.end().i32(12).op("return");
    c.end().i32(-1);
    const pick = one([I32], [I32], [], c);
    expect([0, 1, 2, 3, 4, 1000, -1].map((i) => pick(i))).toEqual([10, 11, 12, 11, -1, -1, -1]);

    const sign = new Code().get(0).i32(0).op("i32.lt_s");
    sign.if_(I32);
    sign.i32(-1).else_().i32(1).end();
    const s = one([I32], [I32], [], sign);
    expect([s(-5), s(5)]).toEqual([-1, 1]);
  });

  it("a block whose result is several values (a function type), and calls between functions", () => {
    const m = new Module();
    const pair = m.type([], [I32, I64]);
    const swap = m.declare([I64, I32], [I32, I64]);
    const caller = m.declare([], [I64]);
    m.define(swap, [], new Code().get(1).get(0));
    const c = new Code();
    c.block({ index: pair });
    c.i64(7).i32(5).call(swap).end();
    c.op("drop"); // the i64 of the pair
    c.op("i64.extend_i32_u"); // the i32: 5
    m.define(caller, [], c);
    m.export("f", "func", caller);
    expect(instantiate(m).f()).toBe(5n);
  });

  it("refuses a branch to a closed block, a body left open, and an undefined function", () => {
    const c = new Code();
    const b = c.block();
    c.end();
    expect(() => c.br(b)).toThrow(/not open/);
    const m = new Module();
    expect(() => m.func([], [], [], (() => { const o = new Code(); o.block(); return o; })())).toThrow(/blocks open/);
    m.declare([], []);
    expect(() => m.bytes()).toThrow(/never defined/);
  });
});

describe("memory", () => {
  it("loads and stores of every width against a DataView of the same memory, with offsets", () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const m = new Module();
    m.importMemory("env", "memory", 1);
    const kinds = [["i32_8", "i32_8u", I32], ["i32_16", "i32_16u", I32], ["i32", "i32", I32], ["i64_8", "i64_8u", I64], ["i64_16", "i64_16u", I64], ["i64_32", "i64_32u", I64], ["i64", "i64", I64]] as const;
    for (const [store, load, type] of kinds) {
      m.export(`store_${store}`, "func", m.func([I32, type], [], [], new Code().get(0).get(1).store(store, 3)));
      m.export(`load_${load}`, "func", m.func([I32], [type], [], new Code().get(0).load(load, 3)));
    }
    m.export("load_i32_8s", "func", m.func([I32], [I32], [], new Code().get(0).load("i32_8s")));
    m.export("load_i64_32s", "func", m.func([I32], [I64], [], new Code().get(0).load("i64_32s")));
    const x = instantiate(m, { env: { memory } });
    const view = new DataView(memory.buffer);
    x.store_i64(100, 0x0102030405060708n);
    expect(view.getBigUint64(103, true)).toBe(0x0102030405060708n);
    expect(x.load_i32(100)).toBe(0x05060708);
    expect(x.load_i32_16u(100)).toBe(0x0708);
    expect(x.load_i64_32u(104)).toBe(0x01020304n);
    x.store_i32_8(200, 0x1ff);
    expect(view.getUint8(203)).toBe(0xff);
    expect(view.getUint8(204)).toBe(0);
    expect(x.load_i32_8s(203)).toBe(-1);
    expect(x.load_i32_8u(200)).toBe(0xff);
    x.store_i64_32(300, -2n);
    expect(x.load_i64_32s(303)).toBe(-2n);
    expect(x.load_i64_32u(300)).toBe(0xfffffffen);
    x.store_i64_16(400, 0xabcdn);
    expect(x.load_i64_16u(400)).toBe(0xabcdn);
    x.store_i32_16(500, 0x12345);
    expect(x.load_i32_16u(500)).toBe(0x2345);
    x.store_i64_8(600, 0x180n);
    expect(x.load_i64_8u(600)).toBe(0x80n);
  });

  it("memory.fill and memory.copy (bulk memory); globals; data segments; an own memory exported", () => {
    const m = new Module();
    m.defineMemory(1);
    const counter = m.global(I32, true, 0);
    m.dataAt(16, Uint8Array.from([1, 2, 3, 4]));
    m.export("memory", "memory", 0);
    m.export("fill", "func", m.func([I32, I32, I32], [], [], new Code().get(0).get(1).get(2).memoryFill()));
    m.export("copy", "func", m.func([I32, I32, I32], [], [], new Code().get(0).get(1).get(2).memoryCopy()));
    m.export("bump", "func", m.func([], [I32], [], new Code().globalGet(counter).i32(1).op("i32.add").globalSet(counter).globalGet(counter)));
    const x = instantiate(m);
    const u8 = new Uint8Array((x.memory as WebAssembly.Memory).buffer);
    expect([...u8.subarray(16, 20)]).toEqual([1, 2, 3, 4]);
    x.copy(18, 16, 4); // overlapping, as memmove
    expect([...u8.subarray(16, 22)]).toEqual([1, 2, 1, 2, 3, 4]);
    x.fill(30, 0xee, 3);
    expect([...u8.subarray(29, 34)]).toEqual([0, 0xee, 0xee, 0xee, 0]);
    expect([x.bump(), x.bump(), x.bump()]).toEqual([1, 2, 3]);
  });

  it("imports functions and globals, ahead of the module's own", () => {
    const m = new Module();
    const twice = m.importFunction("host", "twice", [I32], [I32]);
    const base = m.importGlobal("host", "base", I32);
    m.export("f", "func", m.func([I32], [I32], [], new Code().get(0).call(twice).globalGet(base).op("i32.add")));
    const x = instantiate(m, { host: { twice: (v: number) => v * 2, base: new WebAssembly.Global({ value: "i32" }, 1000) } });
    expect(x.f(21)).toBe(1042);
    const late = new Module();
    late.func([], [], [], new Code());
    expect(() => late.importFunction("host", "twice", [I32], [I32])).toThrow(/before any is declared/);
  });
});
