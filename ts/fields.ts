// Whether a value is a message of a type, and a field of a message set or cleared. Free functions,
// so that a program that asks none carries none of this.
import { hasDefault, memberValue, type Oneof } from "./defaults.js";
import { fieldIsSet, isPlainMessage } from "./semantics.js";
import type { AnyMessageType, PlainOf, ViewOf } from "./message.js";
import type { FieldInfo } from "./schema.js";
import { isView } from "./viewmark.js";

type Plain = Record<string, unknown>;

/**
 * Whether x is a message of the type: a view or builder of it, or a plain object whose fields have
 * the types the generated interface gives them (fields without presence there, the others and
 * oneofs absent or of their type; other properties allowed, as TypeScript allows them).
 */
export function isMessage<M extends AnyMessageType>(type: M, x: unknown): x is PlainOf<M> | ViewOf<M> {
  if (isView(x)) return type.ownView(x);
  return isPlainMessage(type.schemaDef, type.index, x);
}

/**
 * Whether a field (by its property name: a oneof's member, or a oneof, set when one of its members
 * is) is set in a plain object or view.
 */
export function isFieldSet<M extends AnyMessageType>(type: M, message: PlainOf<M> | ViewOf<M>, field: string): boolean {
  const o = type.plainOf(message);
  const f = fieldNamed(type, field);
  if (typeof f === "string") return (o[f] as Oneof)?.case !== undefined && (o[f] as Oneof)!.value != null;
  if (f.oneof < 0) return fieldIsSet(f, o);
  return memberValue(type.schemaDef.messages[type.index]!, f, o) != null;
}

/** Clears a field of a plain object in place (to its default, or absent), a oneof's member or a whole oneof too; returns the object. */
export function clearField<M extends AnyMessageType>(type: M, message: PlainOf<M>, field: string): PlainOf<M> {
  const f = fieldNamed(type, field);
  const o = message as Plain;
  if (typeof f === "string") {
    o[f] = undefined;
  } else if (f.oneof >= 0) {
    const prop = type.schemaDef.messages[type.index]!.oneofs[f.oneof]!.prop;
    if ((o[prop] as Oneof)?.case === f.prop) o[prop] = undefined;
  } else if (hasDefault(f)) {
    delete o[f.prop]; // the default its prototype holds shows again
  } else {
    o[f.prop] = (type.emptyPlain() as Plain)[f.prop];
  }
  return message;
}

/** The field of that property name, or the property of the oneof of that name. */
function fieldNamed(type: AnyMessageType, prop: string): FieldInfo | string {
  const info = type.schemaDef.messages[type.index]!;
  const f = info.fields.find((x) => x.prop === prop) ?? info.oneofs.find((x) => x.prop === prop)?.prop;
  if (f === undefined) throw new TypeError(`${type.typeName} has no field or oneof ${prop}`);
  return f;
}
