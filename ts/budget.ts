// What one read of ProtoJSON or text may build: the budget the codec gives a binary decode
// (decoder.hpp's budget_cap), maxAmplification bytes per byte of input plus BUDGET_ALLOWANCE,
// counted in what the codec would allocate for it: each message's record, each element's slot.
// Without it, 1.2 MB of `{},` made 400,000 objects of 200 properties, and their encode 916 MB of
// linear memory, where the same messages as binary were MEMORY_BUDGET.
import { BUDGET_ALLOWANCE } from "./abi.js";
import { valueSize } from "./layout.js";
import { limits } from "./limits.js";
import { Label, type FieldInfo, type SchemaDef } from "./schema.js";

export const MEMORY_BUDGET_REASON = "the message would take more memory than the input allows (maxAmplification)";

export class ReadBudget {
  private left = BUDGET_ALLOWANCE;
  private sized = false;

  /** `inputSize` gives the input's size in bytes; it is asked once the allowance is spent, if ever. */
  constructor(private readonly inputSize: () => number) {}

  /** Takes `bytes`; false when the input does not allow them. */
  take(bytes: number): boolean {
    this.left -= bytes;
    if (this.left >= 0) return true;
    if (this.sized) return false;
    this.sized = true;
    this.left += this.inputSize() * limits.maxAmplification;
    return this.left >= 0;
  }
}

/** The bytes the codec takes for one element of a repeated field or map: its slot, and a map entry's record. */
export function elementSize(def: SchemaDef, f: FieldInfo): number {
  if (f.label === Label.Map) return valueSize(f.type) + def.messages[f.ref]!.recordSize;
  return valueSize(f.type);
}

/** The size of a string as UTF-8, without encoding it. */
export function utf8Size(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x800) n += c >= 0xd800 && c <= 0xdbff ? 0 : 2; // a surrogate pair: 4 bytes for its 2 units
    else if (c >= 0x80) n += 1;
  }
  return n;
}
