// A registry: message types by full name, for what finds a type by its name at run time (an Any
// in ProtoJSON and the text format, anyUnpack, a program handling messages it was not built for).
// Generated types and types built at run time from descriptors go in the same one.
import type { AnyMessageType as AnyType } from "./message.js";

export class Registry implements Iterable<AnyType> {
  private readonly byName = new Map<string, AnyType>();

  /** A registry of these message types (or collections of them, such as a runtime schema's `types.values()`). */
  constructor(...types: (AnyType | Iterable<AnyType>)[]) {
    this.add(...types);
  }

  /** Adds message types; a later type of the same name replaces an earlier one. Returns the registry. */
  add(...types: (AnyType | Iterable<AnyType>)[]): this {
    for (const t of types) {
      if (Symbol.iterator in t) for (const u of t) this.byName.set(u.typeName, u);
      else this.byName.set(t.typeName, t);
    }
    return this;
  }

  /** The message type of this full name ("pkg.Message"), or undefined. */
  get(typeName: string): AnyType | undefined {
    return this.byName.get(typeName);
  }

  get size(): number {
    return this.byName.size;
  }

  [Symbol.iterator](): Iterator<AnyType> {
    return this.byName.values();
  }
}
