// The fields of wire bytes one by one (unknown fields kept as bytes: extensions read and written
// there, a registry finding the extensions it knows among them).

/** Each field of wire bytes: its number and where it starts and ends (a group whole). */
export function eachField(bytes: Uint8Array, visit: (number: number, start: number, end: number) => void): void {
  let at = 0;
  const varint = (): number => {
    let v = 0, shift = 0, b: number;
    do {
      if (at >= bytes.length) throw new RangeError("hppproto: $unknown holds a truncated field");
      b = bytes[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  };
  const skip = (wire: number, field: number): void => {
    switch (wire) {
      case 0: varint(); break;
      case 1: at += 8; break;
      case 2: {
        const n = varint(); // read before adding: `at += varint()` would add to the old position
        at += n;
        break;
      }
      case 5: at += 4; break;
      case 3:
        for (;;) {
          const tag = varint();
          if ((tag & 7) === 4) {
            if (Math.floor(tag / 8) !== field) throw new RangeError("hppproto: $unknown holds a mismatched group end");
            break;
          }
          skip(tag & 7, Math.floor(tag / 8));
        }
        break;
      default: throw new RangeError(`hppproto: $unknown holds wire type ${wire}`);
    }
    if (at > bytes.length) throw new RangeError("hppproto: $unknown holds a truncated field");
  };
  while (at < bytes.length) {
    const start = at;
    const tag = varint();
    const field = Math.floor(tag / 8);
    skip(tag & 7, field);
    visit(field, start, at);
  }
}
