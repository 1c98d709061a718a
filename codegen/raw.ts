// `hppproto-gen decode --raw`: the fields of a payload without its schema, printed as protoc
// --decode_raw prints them. A length-delimited field that parses completely as fields is shown as
// a nested message, else as a string (escaped like protobuf text format).

/** One line per field, nested messages and groups indented by two spaces. Throws on malformed input. */
export function decodeRaw(bytes: Uint8Array): string {
  const lines: string[] = [];
  parseFields(bytes, 0, bytes.length, 0, lines, 0);
  return lines.map((l) => l + "\n").join("");
}

export class RawError extends Error {}

/** Nesting beyond this prints length-delimited fields as strings and fails groups, as protoc's recursion limit does. */
const MAX_DEPTH = 100;

function varint(b: Uint8Array, p: number, end: number): [bigint, number] {
  let v = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (p >= end) throw new RawError(`truncated varint at byte ${p}`);
    const c = b[p++]!;
    v |= BigInt(c & 0x7f) << shift;
    if (c < 0x80) return [BigInt.asUintN(64, v), p];
  }
  throw new RawError(`varint longer than 10 bytes at byte ${p}`);
}

const hex = (v: bigint, digits: number) => "0x" + v.toString(16).padStart(digits, "0");

/** Appends the fields in [p, end) to `lines`; inside a group, stops after its end-group tag. Returns where it stopped. */
function parseFields(b: Uint8Array, p: number, end: number, group: number, lines: string[], depth: number): number {
  const indent = "  ".repeat(depth);
  while (p < end) {
    const start = p;
    let tag: bigint;
    [tag, p] = varint(b, p, end);
    const number = Number(tag >> 3n);
    const wt = Number(tag & 7n);
    if (number === 0 || tag >> 3n > 0x1fffffffn) throw new RawError(`invalid field number at byte ${start}`);
    switch (wt) {
      case 0: {
        let v: bigint;
        [v, p] = varint(b, p, end);
        lines.push(`${indent}${number}: ${v}`);
        break;
      }
      case 1:
        if (end - p < 8) throw new RawError(`truncated fixed64 at byte ${p}`);
        lines.push(`${indent}${number}: ${hex(new DataView(b.buffer, b.byteOffset + p, 8).getBigUint64(0, true), 16)}`);
        p += 8;
        break;
      case 5:
        if (end - p < 4) throw new RawError(`truncated fixed32 at byte ${p}`);
        lines.push(`${indent}${number}: ${hex(BigInt(new DataView(b.buffer, b.byteOffset + p, 4).getUint32(0, true)), 8)}`);
        p += 4;
        break;
      case 2: {
        let len: bigint;
        [len, p] = varint(b, p, end);
        if (len > BigInt(end - p)) throw new RawError(`length ${len} past the end at byte ${p}`);
        const bodyEnd = p + Number(len);
        // tried as a message in place: on failure its lines are taken back (no copy per level)
        const mark = lines.length;
        let isMessage = len > 0n && depth < MAX_DEPTH;
        if (isMessage) {
          lines.push(`${indent}${number} {`);
          try {
            isMessage = parseFields(b, p, bodyEnd, 0, lines, depth + 1) === bodyEnd;
          } catch (e) {
            if (!(e instanceof RawError)) throw e;
            isMessage = false;
          }
        }
        if (isMessage) lines.push(`${indent}}`);
        else {
          lines.length = mark;
          lines.push(`${indent}${number}: "${escape(b.subarray(p, bodyEnd))}"`);
        }
        p = bodyEnd;
        break;
      }
      case 3: {
        if (depth >= MAX_DEPTH) throw new RawError(`groups nested deeper than ${MAX_DEPTH} at byte ${start}`);
        lines.push(`${indent}${number} {`);
        p = parseFields(b, p, end, number, lines, depth + 1);
        lines.push(`${indent}}`);
        break;
      }
      case 4:
        if (number !== group) throw new RawError(`unmatched end-group tag ${number} at byte ${start}`);
        return p;
      default:
        throw new RawError(`invalid wire type ${wt} at byte ${start}`);
    }
  }
  if (group !== 0) throw new RawError(`group ${group} is not terminated`);
  return p;
}

/** Text-format escaping: printable ASCII as is, UTF-8 text as is, other bytes as octal. */
function escape(bytes: Uint8Array): string {
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes); // (a leading U+FEFF is text)
  } catch {
    text = undefined;
  }
  let out = "";
  if (text !== undefined) {
    for (const c of text) {
      const code = c.codePointAt(0)!;
      if (c === '"' || c === "\\") out += "\\" + c;
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else if (code < 0x20 || code === 0x7f) out += "\\" + code.toString(8).padStart(3, "0");
      else out += c;
    }
    return out;
  }
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c) out += "\\" + String.fromCharCode(byte);
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += "\\" + byte.toString(8).padStart(3, "0");
  }
  return out;
}
