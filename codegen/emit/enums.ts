// Enums as erasable syntax: a const object of the values and a union type of the same name.
import { safeProperty } from "../../ts/schema.js";
import type { EnumModel } from "../model.js";
import { decl, impl, ts } from "../syntax.js";
import { docComment, propertyKey } from "./code.js";
import type { FileContext } from "./context.js";

/** An enum as erasable syntax: a const object of its values and a union type of the same name. */
export function enumDecl(c: FileContext, e: EnumModel): string {
  const name = c.names.get(e)!.type;
  // "$" after names that would break the object, as fields get it ("__proto__" would set its prototype, "toString" break coercion)
  const keys = e.values.map((v) => propertyKey(safeProperty(v.name)));
  const doc = (i: number) => docComment(undefined, e.values[i]!.deprecated, "  ", e.values[i]!.comment);
  const object = keys.map((k, i) => `${doc(i)}  ${k}: ${e.values[i]!.number},`).join("\n");
  const type = keys.map((k, i) => `${doc(i)}  readonly ${k}: ${e.values[i]!.number};`).join("\n");
  return docComment(`${e.fullName} (${e.closed ? "closed" : "open"})`, e.deprecated, "", e.comment) +
    `export ${decl("declare ")}const ${name}${decl(`: {\n${type}\n}`)}${impl(` = {\n${object}\n}${ts(" as const")}`)};\n` +
    // any number too: open enums keep values the schema does not declare, and `number & {}` keeps the named values in editors
    ts(`${docComment(undefined, e.deprecated)}export type ${name} = (typeof ${name})[keyof typeof ${name}] | (number & {});\n`);
}
