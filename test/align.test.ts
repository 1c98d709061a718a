// The placement of large inputs in linear memory (ts/align.ts): which offset aligns the largest
// top-level length-delimited field, and that any bytes at all give an offset in 0..7.
import { describe, expect, it } from "vitest";
import { alignmentShift } from "../dist/ts/align.js";
import { Wire } from "./support/wire.js";

const big = 70_000;

describe("alignmentShift", () => {
  it("puts the largest top-level length-delimited field on an 8-byte boundary", () => {
    for (let pad = 0; pad < 16; pad++) {
      const head = new Wire().tag(1, 0).varint(300).tag(2, 1).fixed64(1.5).tag(3, 5).raw(1, 2, 3, 4)
        .string(4, "p".repeat(pad)).tag(200, 2).varint(big).finish();
      const input = new Uint8Array(head.length + big);
      input.set(head);
      expect((alignmentShift(input) + head.length) % 8).toBe(0);
    }
  });

  it("leaves small inputs where they are", () => {
    const small = new Wire().string(1, "abc").finish();
    expect(alignmentShift(small)).toBe(0);
  });

  it("gives an offset in 0..7 for any bytes, truncated and malformed ones included", () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    for (let i = 0; i < 200; i++) {
      const bytes = Uint8Array.from({ length: big + (i % 9) }, next);
      const shift = alignmentShift(bytes);
      expect(Number.isInteger(shift) && shift >= 0 && shift < 8).toBe(true);
    }
    const endsInsideLength = new Uint8Array(big).fill(0x80);
    endsInsideLength[0] = 0x0a;
    expect(alignmentShift(endsInsideLength)).toBeGreaterThanOrEqual(0);
  });
});
