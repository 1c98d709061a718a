// What protoc guarantees of the descriptors it hands a plugin, checked before any of their text
// reaches generated code: names are identifiers as protoc's grammar has them, packages dotted
// identifiers, file names relative paths that an output folder and an import specifier can hold,
// every type reference resolves, defaults read as their field's type. A CodeGeneratorRequest holds
// whatever its sender wrote; hppproto-gen's descriptors (protobufjs reads the same grammar) pass.
import type { DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto } from "./descriptor.js";

/** A descriptor protoc would never have written, named by its file and element. */
export class DescriptorError extends Error {}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Text of the request in an error: quoted (control characters escaped) and cut short. */
const MAX_SHOWN = 40;
const shown = (text: string): string => JSON.stringify(text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text);

/**
 * A file name as output path and import specifier: "/"-separated parts, none empty, "." or "..";
 * no backslash, control character, or URL syntax an import specifier would read (# ? %).
 */
const isSafeFileName = (name: string): boolean =>
  !/[\\#?%\u0000-\u001f\u007f-\u009f]/.test(name) && name.split("/").every((part) => part !== "" && part !== "." && part !== "..");

const TYPE_STRING = 9, TYPE_GROUP = 10, TYPE_MESSAGE = 11, TYPE_BYTES = 12, TYPE_ENUM = 14;

/** A default_value as protoc writes it, by field type: integers in decimal, floats also inf/nan, bytes C-escaped. */
const INTEGER = /^-?\d+$/;
const FLOAT = /^-?(?:inf|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/;
const C_ESCAPED = /^(?:[^\\]|\\(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|[abfnrtv\\'"?]))*$/s;
const defaultFormats: Record<number, RegExp> = {
  1: FLOAT, 2: FLOAT, 3: INTEGER, 4: INTEGER, 5: INTEGER, 6: INTEGER, 7: INTEGER, 8: /^(?:true|false)$/,
  [TYPE_BYTES]: C_ESCAPED, 13: INTEGER, 15: INTEGER, 16: INTEGER, 17: INTEGER, 18: INTEGER,
};

/** Throws a DescriptorError for the first element of the files protoc could not have described. */
export function validateDescriptors(files: readonly FileDescriptorProto[]): void {
  // every message and enum of every file, by the reference protoc writes (".pkg.Outer.Inner")
  const messages = new Set<string>();
  const enums = new Map<string, EnumDescriptorProto>();
  const references: (() => void)[] = [];

  for (const file of files) {
    const fail = (element: string, problem: string): never => {
      throw new DescriptorError(`${file.name}: ${element}: ${problem}`);
    };
    const named = (kind: string, name: string | undefined, scope: string): string => {
      if (name === undefined || !IDENTIFIER.test(name)) fail(`${kind} ${shown(name ?? "")}${scope ? ` in ${scope}` : ""}`, "the name is not an identifier ([A-Za-z_][A-Za-z0-9_]*)");
      return scope ? `${scope}.${name}` : name!;
    };
    const reference = (element: string, what: string, typeName: string | undefined, within: ReadonlySet<string> | ReadonlyMap<string, unknown>) => {
      if (typeName === undefined || !within.has(typeName)) fail(element, `${what} ${shown(typeName ?? "")} names no ${within === enums ? "enum" : "message"} of the request`);
    };
    const field = (f: FieldDescriptorProto, scope: string, oneofs: number) => {
      const element = `field ${named("field", f.name, scope)}`;
      // (descriptor decoding leaves a type descriptor.proto does not know unset)
      if (f.type === undefined) fail(element, "the type is missing or not one of descriptor.proto's");
      if (f.oneofIndex !== undefined && !(f.oneofIndex >= 0 && f.oneofIndex < oneofs)) fail(element, `oneof_index ${f.oneofIndex} names no oneof of its message`);
      references.push(() => {
        if (f.type === TYPE_MESSAGE || f.type === TYPE_GROUP) reference(element, "type_name", f.typeName, messages);
        if (f.type === TYPE_ENUM) reference(element, "type_name", f.typeName, enums);
        if (f.extendee !== undefined) reference(element, "extendee", f.extendee, messages);
        if (f.defaultValue !== undefined) checkDefault(f, element);
      });
    };
    const checkDefault = (f: FieldDescriptorProto, element: string) => {
      const d = f.defaultValue!;
      const ok = f.type === TYPE_STRING ? true
        : f.type === TYPE_ENUM ? enums.get(f.typeName!)?.value?.some((v) => v.name === d) === true
        : defaultFormats[f.type!]?.test(d) === true;
      if (!ok) fail(element, `default_value ${shown(d)} is not a value of the field's type`);
    };
    const enumType = (e: EnumDescriptorProto, scope: string) => {
      const fullName = named("enum", e.name, scope);
      enums.set(`.${fullName}`, e);
      // values are scoped beside their enum, as in C++
      for (const v of e.value ?? []) named("enum value", v.name, fullName);
    };
    const message = (d: DescriptorProto, scope: string) => {
      const fullName = named("message", d.name, scope);
      messages.add(`.${fullName}`);
      const oneofs = d.oneofDecl ?? [];
      for (const o of oneofs) named("oneof", o.name, fullName);
      for (const f of d.field ?? []) field(f, fullName, oneofs.length);
      if (d.options?.mapEntry && ![1, 2].every((n) => d.field?.some((f) => f.number === n))) fail(`message ${fullName}`, "a map entry needs fields numbered 1 (key) and 2 (value)");
      for (const n of d.nestedType ?? []) message(n, fullName);
      for (const e of d.enumType ?? []) enumType(e, fullName);
      for (const x of d.extension ?? []) field(x, fullName, 0);
    };

    if (typeof file.name !== "string" || !isSafeFileName(file.name)) {
      throw new DescriptorError(`file ${shown(String(file.name))}: the name is not a relative path of "/"-separated parts without "." or ".." parts, backslashes, control characters, "#", "?" or "%"`);
    }
    const pkg = file.package ?? "";
    if (pkg !== "" && !pkg.split(".").every((part) => IDENTIFIER.test(part))) fail(`package ${shown(pkg)}`, "not identifiers joined by dots");
    for (const d of file.messageType ?? []) message(d, pkg);
    for (const e of file.enumType ?? []) enumType(e, pkg);
    for (const x of file.extension ?? []) field(x, pkg, 0);
    for (const s of file.service ?? []) {
      const service = named("service", s.name, pkg);
      for (const m of s.method ?? []) {
        const element = `method ${named("method", m.name, service)}`;
        references.push(() => {
          reference(element, "input_type", m.inputType, messages);
          reference(element, "output_type", m.outputType, messages);
        });
      }
    }
  }
  // references once every file's types are known: a file may name the types of files after it
  for (const check of references) check();
}
