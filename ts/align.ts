// Where to place a large input in linear memory: its largest top-level length-delimited field then
// starts on an 8-byte boundary, and the decoder uses a packed fixed-width run there (repeated
// double, fixed64, float, ...) in place instead of copying it to realign it. Runs nested deeper,
// and runs in a batch of delimited messages, are realigned by copying as before.

/** Smaller inputs are not scanned: realigning their runs costs less than the scan. */
const SCAN_FROM = 64 * 1024;
/** The scan gives up after this many fields (a message of many small fields has no run worth it). */
const MAX_FIELDS = 64;

/** Bytes (0 to 7) by which to offset the copy of `bytes`. */
export function alignmentShift(bytes: Uint8Array): number {
  if (bytes.length < SCAN_FROM) return 0;
  const end = bytes.length;
  let p = 0;
  let largest = 0;
  let largestAt = 0;
  for (let fields = 0; fields < MAX_FIELDS && p < end; fields++) {
    const wireType = bytes[p]! & 7;
    while (p < end && bytes[p]! >= 0x80) p++; // the rest of the tag
    p++;
    if (wireType === 0) {
      while (p < end && bytes[p]! >= 0x80) p++;
      p++;
    } else if (wireType === 1) {
      p += 8;
    } else if (wireType === 5) {
      p += 4;
    } else if (wireType === 2) {
      let len = 0;
      for (let scale = 1; p < end; scale *= 128) {
        const b = bytes[p++]!;
        len += (b & 0x7f) * scale;
        if (b < 0x80) break;
      }
      if (len > largest) {
        largest = len;
        largestAt = p;
      }
      p += len;
    } else {
      break; // groups: not worth following; the decoder reports anything malformed
    }
  }
  return (8 - (largestAt & 7)) & 7;
}
