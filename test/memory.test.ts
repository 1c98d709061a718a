// Strings read out of linear memory: short ASCII ones are built in JS, at lengths that differ between
// Node (Buffer#utf8Slice beside them) and browsers (TextDecoder only), so both builds of Memory are
// checked against TextDecoder at every length around their thresholds.
import { afterAll, describe, expect, it, vi } from "vitest";

type MemoryClass = typeof import("../dist/ts/memory.js").Memory;

async function memoryModule(withBuffer: boolean): Promise<MemoryClass> {
  vi.resetModules();
  if (!withBuffer) vi.stubGlobal("Buffer", undefined);
  try {
    return (await import("../dist/ts/memory.js")).Memory;
  } finally {
    vi.unstubAllGlobals();
  }
}

afterAll(() => vi.resetModules());

const reference = new TextDecoder("utf-8", { ignoreBOM: true });

describe.each([["Node (Buffer)", true], ["browsers (no Buffer)", false]] as const)("Memory.str in %s", (_, withBuffer) => {
  it("gives TextDecoder's string for ASCII, non-ASCII at each place, and malformed UTF-8, at every length to 200", async () => {
    const Memory = await memoryModule(withBuffer);
    const wasm = new WebAssembly.Memory({ initial: 1 });
    const mem = new Memory(wasm);
    const u8 = new Uint8Array(wasm.buffer);
    const at = 1000;
    const odd = [[0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80], [0x80], [0xff], [0xef, 0xbb, 0xbf], [0x7f], [0x00]];
    let checked = 0;
    for (let length = 0; length <= 200; length++) {
      const places = length === 0 ? [-1] : [-1, 0, 7, 8, 15, 16, 17, length >> 1, length - 1].filter((p) => p < length);
      for (const place of places) {
        for (const seq of place < 0 ? [[]] : odd) {
          const bytes = Array.from({ length }, (_, i) => 0x20 + ((i * 31) % 95));
          if (place >= 0) bytes.splice(place, seq.length, ...seq);
          const n = Math.min(bytes.length, length);
          u8.fill(0xaa, at - 8, at + 300); // neighbours that are not ASCII: nothing past the string is read
          u8.set(bytes.slice(0, n), at);
          expect(mem.str(at, n), `length ${n}, ${seq.join(",")} at ${place}`).toBe(reference.decode(u8.subarray(at, at + n)));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it("reads the bytes as they are now, not as an earlier call saw them", async () => {
    const Memory = await memoryModule(withBuffer);
    const wasm = new WebAssembly.Memory({ initial: 1 });
    const mem = new Memory(wasm);
    const u8 = new Uint8Array(wasm.buffer);
    for (const length of [5, 20, 64, 100, 112, 113, 150]) {
      u8.fill(0x61, 0, length);
      expect(mem.str(0, length)).toBe("a".repeat(length));
      u8.fill(0x62, 0, length);
      expect(mem.str(0, length)).toBe("b".repeat(length));
    }
  });
});
