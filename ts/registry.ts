// A registry: message types and extensions by full name, for what finds them by name at run time
// (an Any in ProtoJSON and the text format, anyUnpack, extensions a message holds in its unknown
// fields, a program handling messages it was not built for). Generated types and types built at
// run time from descriptors go in the same one.
import { concatBytes } from "./copy.js";
import type { Extension } from "./extension.js";
import type { AnyMessageType as AnyType } from "./message.js";
import { eachField } from "./wirefields.js";

type AnyExtension = Extension<unknown, unknown>;
type Entry = AnyType | AnyExtension;

export class Registry implements Iterable<AnyType> {
  private readonly byName = new Map<string, AnyType>();
  private readonly extensionsByName = new Map<string, AnyExtension>();
  /** extendee full name -> field number -> extension */
  private readonly extensionsOf = new Map<string, Map<number, AnyExtension>>();

  /** A registry of these message types and extensions (or collections of them: a runtime schema's `types.values()`, another registry). */
  constructor(...entries: (Entry | Iterable<Entry>)[]) {
    this.add(...entries);
  }

  /** Adds message types and extensions; a later one of the same name replaces an earlier one. Returns the registry. */
  add(...entries: (Entry | Iterable<Entry>)[]): this {
    for (const e of entries) {
      // (told apart without importing Extension: a program without extensions carries none of it)
      if ("extendee" in e) this.addExtension(e as AnyExtension);
      else if (e instanceof Registry) this.add(...e, ...e.extensionsByName.values()); // its extensions too
      else if (Symbol.iterator in e) this.add(...e);
      else this.byName.set(e.typeName, e);
    }
    return this;
  }

  private addExtension(ext: AnyExtension): void {
    const extendee = ext.extendee.typeName;
    const earlier = this.extensionsByName.get(ext.typeName);
    if (earlier !== undefined) this.extensionsOf.get(earlier.extendee.typeName)?.delete(earlier.number);
    this.extensionsByName.set(ext.typeName, ext);
    let numbers = this.extensionsOf.get(extendee);
    if (numbers === undefined) this.extensionsOf.set(extendee, (numbers = new Map()));
    numbers.set(ext.number, ext);
  }

  /** The message type of this full name ("pkg.Message"), or undefined. */
  get(typeName: string): AnyType | undefined {
    return this.byName.get(typeName);
  }

  /** The extension of this full name ("pkg.my_option", or "pkg.Message.my_option" when nested), or undefined. */
  extension(typeName: string): AnyExtension | undefined {
    return this.extensionsByName.get(typeName);
  }

  /** The extension of a message type ("pkg.Message") with this field number, or undefined. */
  extensionFor(extendee: string, number: number): AnyExtension | undefined {
    return this.extensionsOf.get(extendee)?.get(number);
  }

  /**
   * @internal ProtoJSON and the text format print through this: the extensions of message type
   * `extendee` held in its unknown fields `bytes`, by number, with their values; the other fields
   * as `rest`. Undefined when the registry has no extension of that type.
   */
  unknownExtensions(extendee: string, bytes: Uint8Array): { found: [AnyExtension, unknown][]; rest: Uint8Array } | undefined {
    const numbers = this.extensionsOf.get(extendee);
    if (numbers === undefined || numbers.size === 0) return undefined;
    // each extension's own fields, so that each is decoded from its bytes alone
    const found = new Map<AnyExtension, Uint8Array[]>();
    const rest: Uint8Array[] = [];
    eachField(bytes, (number, start, end) => {
      const ext = numbers.get(number);
      const into = ext === undefined ? rest : found.get(ext) ?? found.set(ext, []).get(ext)!;
      into.push(bytes.subarray(start, end));
    });
    const sorted = [...found].sort(([a], [b]) => a.number - b.number);
    return { found: sorted.map(([ext, parts]) => [ext, ext.valueIn(concatBytes(parts))]), rest: concatBytes(rest) };
  }

  /** @internal whether the registry has extensions at all */
  get hasExtensions(): boolean {
    return this.extensionsByName.size > 0;
  }

  /** The number of message types. */
  get size(): number {
    return this.byName.size;
  }

  /** The message types. */
  [Symbol.iterator](): Iterator<AnyType> {
    return this.byName.values();
  }
}
