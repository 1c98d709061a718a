// Declared defaults on plain objects. A field with explicit presence whose unset value is not its
// type's zero (proto2 `[default = …]`, an editions default, a closed enum's first value) reads that
// value while unset, as views, @bufbuild/protobuf and protobufjs read it: its message's plain
// objects are made on a prototype holding the defaults, and such a field is an own property only
// once set (an own `undefined` would hide the default). Presence of these fields is therefore an own
// property, and whatever tells presence reads them through setValue(). Object literals hold every
// field they set as an own property, so the rule reads them as before; messages without such
// fields keep plain object literals.
import { bytesOfChars, FieldType, int64Forms, isInt64, Label, type FieldInfo, type Int64As, type MessageInfo, type SchemaDef } from "./schema.js";

type Plain = Record<string, unknown>;

/** Whether f reads a declared default while unset (its message's plain objects then have a defaults prototype). */
export const hasDefault = (f: FieldInfo): boolean => f.defaultValue !== undefined && f.label === Label.Explicit;

/** f's value in o where o sets it (not a default o inherits from its prototype), else undefined. */
export function setValue(f: FieldInfo, o: Plain): unknown {
  return hasDefault(f) && !Object.hasOwn(o, f.prop) ? undefined : o[f.prop];
}

/** A oneof as plain objects hold it. */
export type Oneof = { case?: string; value?: unknown } | undefined;

/** Field f's value in o (message `info`'s plain object) where o sets it: a oneof member's only when it is its oneof's case. */
export function memberValue(info: MessageInfo, f: FieldInfo, o: Plain): unknown {
  if (f.oneof < 0) return setValue(f, o);
  const c = o[info.oneofs[f.oneof]!.prop] as Oneof;
  return c?.case === f.prop ? c.value : undefined;
}

/**
 * A field's declared default as plain objects and views hold it (64-bit integers in `form`, the
 * field's own by default; bytes a fresh array), or undefined when that is the zero a record holds.
 */
export function defaultOf(f: FieldInfo, form: Int64As = f.int64): unknown {
  const d = f.defaultValue;
  if (d === undefined) return undefined;
  if (f.type === FieldType.Bytes) return bytesOfChars(String(d));
  if (isInt64(f.type)) return form === "string" ? String(d) : form === "number" ? Number(d) : BigInt(d);
  return d;
}

/** Per schema, message index * 4 + form (0 to 2 as int64Forms, 3 each field's own): the prototype, null for none. */
const prototypes = new WeakMap<SchemaDef, (object | null)[]>();

/**
 * The prototype of message `index`'s plain objects: its fields' declared defaults, 64-bit integers
 * in `form` (each field's own when undefined). Undefined when no field of it has one.
 */
export function defaultsPrototype(def: SchemaDef, index: number, form?: Int64As): object | undefined {
  let all = prototypes.get(def);
  if (all === undefined) prototypes.set(def, (all = []));
  const at = index * 4 + (form === undefined ? 3 : int64Forms.indexOf(form));
  let proto = all[at];
  if (proto === undefined) {
    const fields = def.messages[index]!.fields.filter(hasDefault);
    // a form the fields already have is the same prototype: decode(bytes, { int64 }) then keeps it
    if (fields.length === 0) proto = null;
    else if (form !== undefined && fields.every((f) => !isInt64(f.type) || f.int64 === form)) proto = defaultsPrototype(def, index)!;
    else proto = makePrototype(fields, form, def.messages[index]!.name);
    all[at] = proto;
  }
  return proto ?? undefined;
}

function makePrototype(fields: readonly FieldInfo[], form: Int64As | undefined, message: string): object {
  const proto = {}; // on Object.prototype: a message's constructor is Object, as an object literal's
  for (const f of fields) {
    const prop = f.prop;
    // a default read through an accessor: setting the field makes it an own property, as for the others
    const accessor = (get: () => unknown) => Object.defineProperty(proto, prop, {
      get,
      set(this: object, v: unknown) {
        Object.defineProperty(this, prop, { value: v, writable: true, enumerable: true, configurable: true });
      },
      configurable: true,
    });
    if (form === "number" && isInt64(f.type) && !Number.isSafeInteger(Number(f.defaultValue))) {
      // as a set value that a number cannot hold exactly is (int64.ts), not a rounded default; but
      // only when read, so that decoding messages that leave the field unset works
      accessor(() => {
        throw new RangeError(`${message}.${f.name}: its default ${f.defaultValue} does not fit a JS number exactly`);
      });
    } else if (f.type === FieldType.Bytes) {
      // a fresh array per read, as views give it (writing into one shared array would change every
      // message's default)
      accessor(() => defaultOf(f));
    } else {
      // not enumerable: for-in sees only what a message sets
      Object.defineProperty(proto, prop, { value: defaultOf(f, form), writable: true, configurable: true });
    }
  }
  return proto;
}

/**
 * A plain object of message `index` just made by decode() with its 64-bit integers converted to
 * `form`: its prototype's defaults in that form too.
 */
export function reformDefaults(def: SchemaDef, index: number, o: Plain, form: Int64As): void {
  const own = defaultsPrototype(def, index);
  if (own === undefined || Object.getPrototypeOf(o) !== own) return;
  const formed = defaultsPrototype(def, index, form)!;
  if (formed !== own) Object.setPrototypeOf(o, formed);
}
