// Pieces of generated code every facade writes: declarations that render to .ts, .js and .d.ts
// (see syntax.ts), class members, property keys, and where a field's bits and bytes are.
import { valueSize } from "../../ts/layout.js";
import type { FieldModel } from "../model.js";
import { comment, literal } from "../names.js";
import { decl, impl, nonNull, signature, ts } from "../syntax.js";

/** [byte offset in the record, bit mask] of an explicit-presence field's hasbit. */
export function presenceBit(f: FieldModel): [number, number] {
  return [f.presence >>> 3, 1 << (f.presence & 7)];
}

/** Bytes of one value of f's type in a record slot or array. */
export function elementWidth(f: FieldModel): number {
  return valueSize(f.type);
}

/** A key in an object literal: the name, or a string literal when it is not an identifier. */
export function propertyKey(prop: string): string {
  if (prop === "__proto__") return '["__proto__"]'; // a plain "__proto__" key would set the prototype
  return /^[A-Za-z_$][\w$]*$/.test(prop) ? prop : literal(prop);
}

/** `.prop`, or `["prop"]` when prop is not an identifier. */
export function propertyAccess(prop: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(prop) ? `.${prop}` : `[${literal(prop)}]`;
}

export function hasbit(u8: string, p: string, bit: number): string {
  return `(${u8}[${p} + ${bit >>> 3}]${nonNull} & ${1 << (bit & 7)}) !== 0`;
}

/** An exported function: the declaration file keeps its signature. */
export function exportedFunction(doc: string | undefined, name: string, params: [string, string][], returns: string, body: string[]): string {
  const head = doc === undefined ? "" : `/** ${comment(doc)} */\n`;
  return `${head}export ${decl("declare ")}function ${name}${signature(usedParams(params, body), returns)}${impl(` {\n${body.join("\n")}\n}`)}${decl(";")}\n`;
}

/** A function of the module's own, absent from the declaration file. */
export function moduleFunction(name: string, params: [string, string][], returns: string, body: string[]): string {
  return impl(`function ${name}${signature(usedParams(params, body), returns)} {\n${body.join("\n")}\n}\n`);
}

/** A function expression whose `this` is of type `self` (TypeScript only), its parameters as moduleFunction's. */
export function functionExpression(self: string, params: [string, string][], returns: string, body: string[]): string {
  return `function (${ts(`this: ${self}, `)}${signature(usedParams(params, body), returns).slice(1)} {\n${body.join("\n")}\n}`;
}

/** The parameters, those the body does not use named with a leading "_" (as noUnusedParameters allows). */
function usedParams(params: [string, string][], body: string[]): [string, string][] {
  return params.map(([name, type]) => [uses(body, name) ? name : `_${name}`, type]);
}

/** Whether generated code names the variable `name` (not as a property, not inside a string literal). */
export function uses(code: string[], name: string): boolean {
  const text = code.join("\n").replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return new RegExp(`(?<![\\w$.])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(text);
}

/** A class member (`get x`, `set x`, a method) with its body indented, or `;` in a declaration file. */
export function member(doc: string | undefined, head: string, params: [string, string][], returns: string | undefined, body: string[], deprecated = false, source?: string): string {
  return `${docComment(doc, deprecated, "  ", source)}  ${head}${signature(params, returns)}${impl(` {\n${body.map((l) => `    ${l}`).join("\n")}\n  }`)}${decl(";")}`;
}

/**
 * A doc comment: the element's comment in the .proto (`source`, any number of lines), then `text`
 * (one line of the generator's own), then @deprecated when the element has the deprecated option;
 * "" for none of them.
 */
export function docComment(text: string | undefined, deprecated: boolean, indent = "", source?: string): string {
  const lines = [...(source === undefined ? [] : source.split("\n")), ...(source !== undefined && text !== undefined ? [""] : []), ...(text === undefined ? [] : [text])];
  if (deprecated) lines.push("@deprecated");
  if (lines.length === 0) return "";
  if (lines.length === 1) return `${indent}/** ${comment(lines[0]!)} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l === "" ? "" : ` ${comment(l)}`}`).join("\n")}\n${indent} */\n`;
}
