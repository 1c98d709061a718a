// Protobuf wire bytes by hand, for inputs no encoder would produce.
export class Wire {
  private readonly bytes: number[] = [];

  varint(v: number | bigint): this {
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      this.bytes.push(Number(x & 0x7fn) | 0x80);
      x >>= 7n;
    }
    this.bytes.push(Number(x));
    return this;
  }
  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }
  raw(...b: number[]): this {
    this.bytes.push(...b);
    return this;
  }
  fixed64(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    return this.raw(...b);
  }
  string(field: number, s: string | Uint8Array): this {
    const b = typeof s === "string" ? new TextEncoder().encode(s) : s;
    return this.tag(field, 2).varint(b.length).raw(...b);
  }
  message(field: number, inner: Wire): this {
    return this.string(field, inner.finish());
  }
  get length(): number {
    return this.bytes.length;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}
