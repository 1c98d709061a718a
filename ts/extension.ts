// Extensions as values: each `extend` field is generated once, as an Extension, and read or written
// on any message of the type it extends. Declared in the file of the message it extends, the
// extension is a field of that type, with a property of its own (a runtime schema makes every
// extension it loads one); otherwise its wire bytes are in the message's $unknown, and these
// functions read and write them there, through a message of the extension's own file that holds
// its file's extensions of that type as fields (its carrier).
import { concatBytes } from "./copy.js";
import { EncodeError } from "./errors.js";
import type { AnyMessageType } from "./message.js";
import { unknown as unknownOf } from "./plain.js";
import { partially } from "./limits.js";
import { writer as builderWriter } from "./builder.js";
import { eachField } from "./wirefields.js";
import { isExtension, Label, type FieldInfo } from "./schema.js";
import type { MessageView } from "./view.js";
import { isView } from "./viewmark.js";
import { clearField, isFieldSet, isMessage } from "./fields.js";
import "./codec.js"; // extension values are read and written by their carriers, through the codec

type Plain = Record<string, unknown>;

/** An `extend` field: `E` is the plain object of the message it extends, `V` its value's type. */
export class Extension<E, V> {
  /** @internal never set: the value's type, for inference */
  readonly $value?: V;
  #extendee: AnyMessageType | (() => AnyMessageType);
  #carrier: AnyMessageType | (() => AnyMessageType) | undefined;
  #field?: FieldInfo;

  constructor(
    /** The message type it extends; generated code passes a function returning it (modules may import each other). */
    extendee: AnyMessageType | (() => AnyMessageType),
    readonly number: number,
    /**
     * Where the extendee does not hold it as a field (it extends a message of another file): the
     * message type of the extension's file that does (see carrier).
     */
    carrier?: AnyMessageType | (() => AnyMessageType),
  ) {
    this.#extendee = extendee;
    this.#carrier = carrier;
  }

  get extendee(): AnyMessageType {
    if (typeof this.#extendee === "function") this.#extendee = this.#extendee();
    return this.#extendee;
  }

  /** Whether messages of its extendee's type hold it in their unknown fields, never as a property. */
  get unknownOnly(): boolean {
    return this.#carrier !== undefined;
  }

  /**
   * @internal the message type holding it as a field, which reads and writes its values: the
   * extendee, or for an extension of a message of another file, a message of the extension's file
   * named after the extendee whose fields are the extensions that file declares of it
   */
  get carrier(): AnyMessageType {
    if (this.#carrier === undefined) return this.extendee;
    if (typeof this.#carrier === "function") this.#carrier = this.#carrier();
    return this.#carrier;
  }

  /** The field in its carrier's schema. */
  get field(): FieldInfo {
    if (this.#field === undefined) {
      const { carrier, number } = this;
      const f = carrier.schemaDef.messages[carrier.index]!.fields.find((x) => x.number === number);
      if (f === undefined) throw new Error(`hppproto: ${carrier.typeName} has no extension field ${number}`);
      this.#field = f;
    }
    return this.#field;
  }

  /** Fully qualified, e.g. "pkg.my_option". */
  get typeName(): string {
    return this.field.name.slice(1, -1); // held as "[pkg.name]", its ProtoJSON key
  }

  /** @internal its value in wire bytes (other fields ignored), read by its carrier; the extendee's required fields may be absent */
  valueIn(bytes: Uint8Array): V {
    return this.holderOf(bytes)[this.field.prop] as V;
  }

  /** @internal the plain object of its carrier that wire bytes make (for the extension's field) */
  holderOf(bytes: Uint8Array): Plain {
    const { carrier } = this;
    return partially(() => carrier.decode(bytes)) as Plain;
  }

  /** @internal appends its field with this value to o's unknown fields, where decode() keeps a field o's run does not know */
  appendTo(o: Record<string, unknown>, value: V): void {
    const bytes = this.bytesOf(value);
    o["$unknown"] = o["$unknown"] === undefined ? bytes : concatBytes([o["$unknown"] as Uint8Array, bytes]);
  }

  /** @internal its field with this value as wire bytes, written by its carrier (errors name the extension) */
  bytesOf(value: V): Uint8Array {
    const { carrier } = this;
    try {
      return partially(() => carrier.encode({ [this.field.prop]: value } as never));
    } catch (e) {
      if (e instanceof EncodeError) e.prefix(`[${this.typeName}]`);
      throw e;
    }
  }
}

/** Called by generated code: the Extension of field `number` of the type `extendee` returns (`carrier` as Extension's). */
export function extension<E, V>(extendee: () => AnyMessageType, number: number, carrier?: () => AnyMessageType): Extension<E, V> {
  return new Extension<E, V>(extendee, number, carrier);
}

/** Whether message has the extension as a property: a message of its extendee holding it as a field (or a view or builder of one). */
function holdsField<E, V>(message: object, ext: Extension<E, V>): boolean {
  if (ext.unknownOnly) return false;
  return isView(message) ? isMessage(ext.extendee, message) : ext.field.prop in message;
}

/**
 * Whether setting the extension on message sets its field: a view or builder of the extension's
 * run, or a plain object unless create() or decode() of a run without the extension made it (such
 * an object has every field of its type as a property, but not this one; an object literal is
 * taken as of the extension's run, since nothing says otherwise).
 */
function writesField<E, V>(message: object, ext: Extension<E, V>): boolean {
  if (holdsField(message, ext)) return true;
  if (isView(message) || ext.unknownOnly) return false;
  const { fields } = ext.extendee.schemaDef.messages[ext.extendee.index]!;
  let own = 0;
  for (const f of fields) {
    if (isExtension(f)) continue; // which another run may lack
    if (!(f.prop in message)) return true;
    own++;
  }
  return own === 0;
}

/** The unknown fields of a plain object or view. */
function unknownBytes(message: object): Uint8Array | undefined {
  if (isView(message)) return unknownOf(message.$mem(), message.$ptr);
  return (message as Plain).$unknown as Uint8Array | undefined;
}

/**
 * The extension's value on a message (plain object or view), read from its property or its
 * unknown fields; absent, what an absent field reads as (undefined, or [] for repeated fields).
 */
export function getExtension<E, V>(message: NoInfer<E> | MessageView, ext: Extension<E, V>): V {
  if (holdsField(message as object, ext)) return (message as Plain)[ext.field.prop] as V;
  const bytes = unknownBytes(message as object);
  return ext.valueIn(bytes ?? new Uint8Array(0));
}

/** Whether the extension is set on a message (as isFieldSet() tells for fields). */
export function hasExtension<E, V>(message: NoInfer<E> | MessageView, ext: Extension<E, V>): boolean {
  // asked of the message that holds it: a declared default it reads while unset is not set
  if (holdsField(message as object, ext)) return isFieldSet(ext.extendee, message as E, ext.field.prop);
  return isFieldSet(ext.carrier, ext.holderOf(unknownBytes(message as object) ?? new Uint8Array(0)), ext.field.prop);
}

/** Replaces a message's unknown fields: a plain object's $unknown, or a builder's record. */
function setUnknown(message: object, bytes: Uint8Array): void {
  if (!isView(message)) {
    (message as Plain).$unknown = bytes.length > 0 ? bytes : undefined;
    return;
  }
  if (!("$writer" in message)) throw new TypeError("hppproto: a view is read-only; set extensions on a plain object or a builder");
  builderWriter(message).unknown(message.$ptr, bytes);
}

/**
 * Sets the extension on a plain object or a builder in place: its field, or, on a message of a run
 * without it, its wire bytes among the unknown fields (replacing any there). Returns message.
 */
export function setExtension<E, V>(message: NoInfer<E>, ext: Extension<E, V>, value: NoInfer<V>): E {
  if (writesField(message as object, ext)) {
    if (isView(message) && !("$writer" in message)) throw new TypeError(`hppproto: ${ext.typeName}: a view is read-only; set extensions on a plain object or a builder`);
    (message as Plain)[ext.field.prop] = value;
    return message;
  }
  const bytes = ext.bytesOf(value); // first: encoding may grow memory, and fails on a bad value before anything changes
  setUnknown(message as object, concatBytes([withoutField(unknownBytes(message as object), ext.number), bytes]));
  return message;
}

/** A declaration reflection describes (a message type, field, oneof, enum or enum value, a service or method). */
export type OptionsHolder = AnyMessageType | { readonly customOptions?: Uint8Array };

function customOptions(element: OptionsHolder): Uint8Array {
  const bytes = "schemaDef" in element ? element.schemaDef.messages[element.index]!.options : element.customOptions;
  return bytes ?? new Uint8Array(0);
}

/**
 * A custom option's value on a declaration: `ext` is the generated Extension of an `extend
 * google.protobuf.FieldOptions { ... }` field (or MessageOptions, EnumOptions, ...). Unset, what an
 * unset extension reads as (its declared default, undefined, or [] for repeated options).
 *
 *     getOption(User.field("name")!, validate_pb.rules)  // { minLen: 3 }
 */
export function getOption<E, V>(element: OptionsHolder, ext: Extension<E, V>): V {
  return getExtension({ $unknown: customOptions(element) } as E, ext);
}

/** Whether a custom option is set on a declaration. */
export function hasOption<E, V>(element: OptionsHolder, ext: Extension<E, V>): boolean {
  return hasExtension({ $unknown: customOptions(element) } as E, ext);
}

/** Clears the extension from a plain object or a builder in place: its field, and its bytes among the unknown fields. Returns message. */
export function clearExtension<E, V>(message: NoInfer<E>, ext: Extension<E, V>): E {
  const { extendee, field } = ext;
  if (writesField(message as object, ext)) {
    // a builder's setter empties it; a plain object is cleared as clear() clears fields (a declared default shows again)
    if (isView(message)) (message as Plain)[field.prop] = field.label === Label.Repeated ? [] : undefined;
    else clearField(extendee, message, field.prop);
  }
  const unknown = unknownBytes(message as object);
  if (unknown instanceof Uint8Array) setUnknown(message as object, withoutField(unknown, ext.number));
  return message;
}

/** Wire bytes without the occurrences of field `number` (groups skipped whole). */
function withoutField(bytes: Uint8Array | undefined, number: number): Uint8Array {
  if (bytes === undefined) return new Uint8Array(0);
  const kept: Uint8Array[] = [];
  eachField(bytes, (field, start, end) => {
    if (field !== number) kept.push(bytes.subarray(start, end));
  });
  return concatBytes(kept);
}
