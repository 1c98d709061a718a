// Descriptors handed over as data, checked as protoc checks the descriptors it builds, before a
// model is built of them or any of their text reaches generated code: by the runtime
// (schemaFromDescriptorSet) and by the generator (buildOutputs: a CodeGeneratorRequest holds
// whatever its sender wrote, and hppproto-gen's descriptors pass the same checks). Whatever protoc
// would reject is a SchemaError naming the file and the declaration, instead of a TypeError inside
// the model, a table the codec refuses at first use, or code that runs at import. What protoc reads
// leniently is read the same way and written as the model reads it: a missing label is optional, a
// missing type is the kind its type name refers to (else double), a type name relative to its
// scope is made absolute, numeric defaults in any form protoc parses (hex, octal, a sign, spaces)
// become decimal. The generator also needs file names it can write and import
// (validateOutputFileNames).
import { SchemaError } from "../ts/errors.js";
import { excerpt, quote } from "../ts/excerpt.js";
import { camelCase, FieldType } from "../ts/schema.js";
import {
  Edition, editionDefaults, EnumType, FieldLabel, FieldPresence, JsType, mapEntryName, MAX_FIELD_NUMBER, qualified, unescapeBytes, withFeatures,
  type DescriptorProto, type EnumDescriptorProto, type Features, type FieldDescriptorProto, type FileDescriptorProto, type NumberRange,
} from "./descriptor.js";
import { identifier } from "./scan.js";

const FIRST_RESERVED = 19000; // 19000-19999: the protobuf implementation's own
const LAST_RESERVED = 19999;

const MAP_ENTRY_SET = "map_entry should not be set explicitly. Use map<KeyType, ValueType> instead.";
const integers: Partial<Record<FieldType, [min: bigint, max: bigint]>> = {
  [FieldType.Int32]: [-(2n ** 31n), 2n ** 31n - 1n], [FieldType.Sint32]: [-(2n ** 31n), 2n ** 31n - 1n], [FieldType.Sfixed32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [FieldType.Uint32]: [0n, 2n ** 32n - 1n], [FieldType.Fixed32]: [0n, 2n ** 32n - 1n],
  [FieldType.Int64]: [-(2n ** 63n), 2n ** 63n - 1n], [FieldType.Sint64]: [-(2n ** 63n), 2n ** 63n - 1n], [FieldType.Sfixed64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [FieldType.Uint64]: [0n, 2n ** 64n - 1n], [FieldType.Fixed64]: [0n, 2n ** 64n - 1n],
};
const isScalar = (t: number) => t !== FieldType.Group && t !== FieldType.Message && t !== FieldType.Enum;
const packable = (t: number) => t !== FieldType.Group && t !== FieldType.Message && t !== FieldType.String && t !== FieldType.Bytes;

type Declaration = { kind: "package" } | { kind: "message"; d: DescriptorProto; file: Checked } | { kind: "enum"; d: EnumDescriptorProto; file: Checked } | { kind: "other" };

/** A file being checked: its descriptor and the features its declarations start from. */
interface Checked {
  d: FileDescriptorProto;
  features: Features;
}

/** What protoc says of a field number it refuses, or undefined. */
export function fieldNumberProblem(number: number): string | undefined {
  return !Number.isInteger(number) || number < 1 ? "field numbers must be positive integers"
    : number > MAX_FIELD_NUMBER ? `field numbers cannot be greater than ${MAX_FIELD_NUMBER}`
    : number >= FIRST_RESERVED && number <= LAST_RESERVED ? `field numbers ${FIRST_RESERVED} through ${LAST_RESERVED} are reserved for the protocol buffer library implementation`
    : undefined;
}

/** Checks (and completes, as protoc reads them) the descriptors of a set; throws the first problem as a SchemaError. */
export function validateDescriptors(files: readonly FileDescriptorProto[]): void {
  new Validator(files).run();
}

/**
 * File names as output paths and import specifiers: "/"-separated parts, none empty, "." or "..";
 * no backslash, control character, or URL syntax an import specifier would read (# ? %).
 */
export function validateOutputFileNames(files: readonly FileDescriptorProto[]): void {
  for (const { name } of files) {
    const safe = typeof name === "string" && !/[\\#?%\u0000-\u001f\u007f-\u009f]/.test(name) &&
      name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
    if (!safe) throw new SchemaError(`file ${quote(String(name))}: the name is not a relative path of "/"-separated parts without "." or ".." parts, backslashes, control characters, "#", "?" or "%"`);
  }
}

class Validator {
  private readonly symbols = new Map<string, Declaration>();
  private readonly extensionNumbers = new Map<string, Map<number, string>>();
  /** Per message, whether its extension ranges hold a number (holding()). */
  private readonly extensionRanges = new Map<DescriptorProto, (n: number) => boolean>();

  private inExtensionRanges(m: DescriptorProto): (n: number) => boolean {
    let inRange = this.extensionRanges.get(m);
    if (inRange === undefined) this.extensionRanges.set(m, (inRange = holding((m.extensionRange ?? []).map((r) => [r.start ?? 0, r.end ?? 0] as const))));
    return inRange;
  }
  private readonly checked: Checked[];

  constructor(private readonly files: readonly FileDescriptorProto[]) {
    this.checked = files.map((d) => ({ d, features: { ...editionDefaults(d) } }));
  }

  run(): void {
    const names = new Set(this.files.map((f) => f.name));
    for (const file of this.checked) {
      const { d } = file;
      const where = d.name ?? "";
      if (typeof d.name !== "string" || d.name === "") throw this.error(where, "", "a file has no name");
      if (d.syntax !== undefined && !["", "proto2", "proto3", "editions"].includes(d.syntax)) throw this.error(where, "", `unrecognized syntax ${quote(d.syntax)}`);
      if (d.syntax === "editions" && (d.edition ?? 0) < Edition.E2023) throw this.error(where, "", `edition ${d.edition ?? "(none)"} is not one protoc reads`);
      file.features = withFeatures(file.features, d.options?.features);
      for (const dep of d.dependency ?? []) if (!names.has(dep)) throw this.error(where, "", `import ${quote(dep)} is not in the set`);
      const pkg = d.package ?? "";
      if (pkg !== "" && !pkg.split(".").every((part) => identifier.test(part))) throw this.error(where, "", `package ${quote(pkg)}: not identifiers joined by dots`);
      if (pkg !== "") pkg.split(".").forEach((part, i, parts) => this.declare(where, parts.slice(0, i).join("."), "package", part, { kind: "package" }));
      d.messageType?.forEach((m) => this.declareMessage(file, m, pkg));
      d.enumType?.forEach((e) => this.declareEnum(file, e, pkg));
      d.extension?.forEach((x) => this.declare(where, pkg, "extension", x.name, { kind: "other" }));
      for (const s of d.service ?? []) {
        const service = this.declare(where, pkg, "service", s.name, { kind: "other" });
        s.method?.forEach((m) => this.declare(where, service, "method", m.name, { kind: "other" }));
      }
    }
    for (const file of this.checked) {
      const pkg = file.d.package ?? "";
      file.d.messageType?.forEach((m) => this.message(file, m, pkg, file.features));
      file.d.enumType?.forEach((e) => this.enum(file, e, pkg, file.features));
      file.d.extension?.forEach((x) => this.extension(file, x, pkg, file.features));
      for (const s of file.d.service ?? []) {
        for (const m of s.method ?? []) {
          const name = qualified(qualified(pkg, s.name), m.name);
          m.inputType = this.messageType(file, name, pkg, m.inputType);
          m.outputType = this.messageType(file, name, pkg, m.outputType);
        }
      }
    }
  }

  /** `file: element: problem`, what comes from the input cut short (it may be a megabyte long). */
  private error(file: string, element: string, problem: string): SchemaError {
    return new SchemaError(`${excerpt(file)}: ${element ? `${excerpt(element)}: ` : ""}${problem}`);
  }

  /** Declares `name` (a `kind`, written inside `within`) in `scope`; returns its full name. */
  private declare(file: string, scope: string, kind: string, name: string | undefined, declaration: Declaration, within = scope): string {
    if (name === undefined || !identifier.test(name)) throw this.error(file, within, `${kind} name ${quote(name ?? "")} is not an identifier ([A-Za-z_][A-Za-z0-9_]*)`);
    const fullName = qualified(scope, name);
    const before = this.symbols.get(fullName);
    if (before !== undefined && !(before.kind === "package" && declaration.kind === "package")) throw this.error(file, "", `${quote(fullName)} is already defined`);
    this.symbols.set(fullName, declaration);
    return fullName;
  }

  private declareMessage(file: Checked, m: DescriptorProto, scope: string): void {
    const name = this.declare(file.d.name, scope, "message", m.name, { kind: "message", d: m, file });
    for (const f of m.field ?? []) this.declare(file.d.name, name, "field", f.name, { kind: "other" });
    for (const o of m.oneofDecl ?? []) this.declare(file.d.name, name, "oneof", o.name, { kind: "other" });
    for (const x of m.extension ?? []) this.declare(file.d.name, name, "extension", x.name, { kind: "other" });
    m.nestedType?.forEach((n) => this.declareMessage(file, n, name));
    m.enumType?.forEach((e) => this.declareEnum(file, e, name));
  }

  private declareEnum(file: Checked, e: EnumDescriptorProto, scope: string): void {
    const name = this.declare(file.d.name, scope, "enum", e.name, { kind: "enum", d: e, file });
    // enum values are siblings of their enum, as in C++
    for (const v of e.value ?? []) this.declare(file.d.name, scope, "enum value", v.name, { kind: "other" }, name);
  }

  /** The declaration a type name refers to from `scope`, as protoc resolves it: absolute with a leading dot, else from the innermost scope out. */
  private resolve(scope: string, typeName: string): [string, Declaration] | undefined {
    if (typeName.startsWith(".")) {
      const found = this.symbols.get(typeName.slice(1));
      return found && [typeName.slice(1), found];
    }
    for (let s = scope; ; s = s.slice(0, Math.max(0, s.lastIndexOf(".")))) {
      const name = qualified(s, typeName);
      const found = this.symbols.get(name);
      if (found) return [name, found];
      if (s === "") return undefined;
    }
  }

  private messageType(file: Checked, element: string, scope: string, typeName: string | undefined): string {
    const found = this.resolve(scope, typeName ?? "");
    if (found === undefined) throw this.error(file.d.name, element, `${quote(typeName ?? "")} is not defined`);
    if (found[1].kind !== "message" || found[1].d.options?.mapEntry) throw this.error(file.d.name, element, `${quote(typeName!)} is not a message type`);
    return `.${found[0]}`;
  }

  private message(file: Checked, m: DescriptorProto, scope: string, outer: Features): void {
    const name = qualified(scope, m.name);
    const features = withFeatures(outer, m.options?.features);
    const fields = m.field ?? [];
    if (m.options?.messageSetWireFormat && fields.length > 0) throw this.error(file.d.name, name, "message sets cannot have fields, only extensions");
    fields.forEach((f) => this.field(file, f, name, features, m));
    // (an entry of a map field is named by the field, above; the model reads any entry as a map's)
    const entry = m.options?.mapEntry ? mapEntryProblem(m) : undefined;
    if (entry !== undefined) throw this.error(file.d.name, name, entry);
    this.numbers(file, m, name);
    this.oneofs(file, m, name);
    this.jsonNames(file, m, name);
    m.nestedType?.forEach((n) => this.message(file, n, name, features));
    m.enumType?.forEach((e) => this.enum(file, e, name, features));
    m.extension?.forEach((x) => this.extension(file, x, name, features));
  }

  /** Field numbers: each used once, none reserved or inside an extension range; ranges well formed. */
  private numbers(file: Checked, m: DescriptorProto, name: string): void {
    const ranges = (list: NumberRange[] | undefined, what: string) =>
      (list ?? []).map((r) => {
        const start = r.start ?? 0, end = r.end ?? 0;
        if (start < 1 || end <= start) throw this.error(file.d.name, name, `${what} ${start} to ${end - 1} is not a range of positive field numbers`);
        return [start, end] as const;
      });
    ranges(m.extensionRange, "extension range");
    const extensions = this.inExtensionRanges(m);
    const reserved = holding(ranges(m.reservedRange, "reserved range"));
    const used = new Map<number, string>();
    const reservedNames = new Set(m.reservedName ?? []);
    for (const f of m.field ?? []) {
      const other = used.get(f.number);
      if (other !== undefined) throw this.error(file.d.name, qualified(name, f.name), `field number ${f.number} has already been used by ${quote(other)}`);
      used.set(f.number, f.name);
      if (reserved(f.number)) throw this.error(file.d.name, qualified(name, f.name), `field number ${f.number} is reserved`);
      if (extensions(f.number)) throw this.error(file.d.name, qualified(name, f.name), `field number ${f.number} is inside an extension range`);
      if (reservedNames.has(f.name)) throw this.error(file.d.name, qualified(name, f.name), "the field's name is reserved");
    }
  }

  /** Oneofs: in range, each with a field, its fields consecutive and singular. */
  private oneofs(file: Checked, m: DescriptorProto, name: string): void {
    const decls = m.oneofDecl ?? [];
    const seen = new Set<number>();
    let last: number | undefined;
    for (const f of m.field ?? []) {
      const i = f.oneofIndex;
      if (i !== undefined) {
        if (!(i >= 0 && i < decls.length)) throw this.error(file.d.name, qualified(name, f.name), `oneof_index ${i} is out of range`);
        if (f.label !== FieldLabel.Optional) throw this.error(file.d.name, qualified(name, f.name), "fields of oneofs must be optional");
        if (seen.has(i) && last !== i) throw this.error(file.d.name, qualified(name, f.name), `the fields of oneof ${quote(decls[i]!.name)} are not consecutive`);
        seen.add(i);
      }
      last = i;
    }
    decls.forEach((o, i) => {
      if (!seen.has(i)) throw this.error(file.d.name, qualified(name, o.name), "a oneof must have at least one field");
    });
    const sizes = new Map<number, number>();
    for (const f of m.field ?? []) if (f.oneofIndex !== undefined) sizes.set(f.oneofIndex, (sizes.get(f.oneofIndex) ?? 0) + 1);
    for (const f of m.field ?? []) {
      if (f.proto3Optional && sizes.get(f.oneofIndex ?? -1) !== 1) throw this.error(file.d.name, qualified(name, f.name), "a proto3 optional field must be alone in its oneof");
    }
  }

  /** ProtoJSON names: two fields may not share one (but two derived names in proto2, where protoc only warns). */
  private jsonNames(file: Checked, m: DescriptorProto, name: string): void {
    const seen = new Map<string, FieldDescriptorProto>();
    const proto2 = !file.d.syntax || file.d.syntax === "proto2";
    for (const f of m.field ?? []) {
      const json = f.jsonName ?? camelCase(f.name);
      const other = seen.get(json);
      const custom = (g: FieldDescriptorProto) => g.jsonName !== undefined && g.jsonName !== camelCase(g.name);
      if (other !== undefined && (custom(f) || custom(other) || !proto2)) {
        throw this.error(file.d.name, qualified(name, f.name), `its JSON name ${quote(json)} is also field ${quote(other.name)}'s`);
      }
      seen.set(json, f);
    }
  }

  private extension(file: Checked, x: FieldDescriptorProto, scope: string, features: Features): void {
    const name = qualified(scope, x.name);
    if (x.extendee === undefined) throw this.error(file.d.name, name, "an extension has no extendee");
    x.extendee = this.messageType(file, name, scope, x.extendee);
    const extendee = this.symbols.get(x.extendee.slice(1)) as Extract<Declaration, { kind: "message" }>;
    if (x.jsonName !== undefined && x.jsonName !== camelCase(x.name)) throw this.error(file.d.name, name, "json_name is not allowed on extensions");
    if (x.oneofIndex !== undefined) throw this.error(file.d.name, name, "an extension cannot be in a oneof");
    this.field(file, x, scope, features, undefined);
    if (!this.inExtensionRanges(extendee.d)(x.number)) {
      throw this.error(file.d.name, name, `${quote(x.extendee.slice(1))} does not declare ${x.number} as an extension number`);
    }
    const taken = this.extensionNumbers.get(x.extendee) ?? new Map<number, string>();
    this.extensionNumbers.set(x.extendee, taken);
    if (taken.has(x.number)) throw this.error(file.d.name, name, `extension number ${x.number} of ${quote(x.extendee.slice(1))} is also ${quote(taken.get(x.number)!)}`);
    taken.set(x.number, name);
    if (extendee.d.options?.messageSetWireFormat && !(x.type === FieldType.Message && x.label === FieldLabel.Optional)) {
      throw this.error(file.d.name, name, "extensions of message sets must be optional messages");
    }
  }

  /** A field or an extension (`owner` undefined), declared in `scope`. */
  private field(file: Checked, f: FieldDescriptorProto, scope: string, outer: Features, owner: DescriptorProto | undefined): void {
    const name = qualified(scope, f.name);
    const fail = (problem: string) => this.error(file.d.name, name, problem);
    const editions = file.d.syntax === "editions", proto3 = file.d.syntax === "proto3";
    if (owner !== undefined && f.extendee !== undefined) throw fail("extendee is set on a field that is not an extension");
    const numberProblem = fieldNumberProblem(f.number ?? 0);
    if (numberProblem !== undefined) throw fail(numberProblem);
    f.label ??= FieldLabel.Optional;
    if (f.label < FieldLabel.Optional || f.label > FieldLabel.Repeated) throw fail(`label ${f.label} is not a label`);
    if (f.label === FieldLabel.Required && (proto3 || editions)) throw fail(`required fields are not allowed in ${proto3 ? "proto3" : "editions"}`);
    this.fieldType(file, f, scope, fail);
    if (f.type === FieldType.Group && (proto3 || editions)) throw fail(`groups are not supported in ${proto3 ? "proto3" : "editions"}`);
    if (f.options?.packed !== undefined && (f.label !== FieldLabel.Repeated || !packable(f.type!))) throw fail("[packed = true] can only be specified for repeated primitive fields");
    const jstype = f.options?.jstype;
    if (jstype !== undefined && jstype !== JsType.Normal && !int64Types.has(f.type!)) throw fail("jstype is only allowed on 64-bit integer fields");
    const target = f.typeName === undefined ? undefined : this.symbols.get(f.typeName.slice(1));
    if (target?.kind === "message" && target.d.options?.mapEntry) this.mapField(f, scope, owner, target.d, fail);
    if (target?.kind === "enum" && proto3 && closed(target.file.features, target.d)) {
      throw fail(`enum type ${quote(f.typeName!.slice(1))} is not a proto3 enum, but is used in a proto3 message`);
    }
    if (f.defaultValue !== undefined) {
      const features = withFeatures(outer, f.options?.features);
      if (f.label === FieldLabel.Repeated) throw fail("repeated fields can't have default values");
      if (f.type === FieldType.Message || f.type === FieldType.Group) throw fail("messages can't have default values");
      if (proto3) throw fail("explicit default values are not allowed in proto3");
      if (features.fieldPresence === FieldPresence.Implicit) throw fail("implicit presence fields can't specify defaults");
      f.defaultValue = this.defaultValue(f, target, fail);
    }
  }

  /** Completes and checks the type and the type name. */
  private fieldType(file: Checked, f: FieldDescriptorProto, scope: string, fail: (problem: string) => SchemaError): void {
    if (f.typeName === undefined) {
      f.type ??= FieldType.Double; // as protoc reads a field without type
      if (!isScalar(f.type)) throw fail(`a field of type ${f.type} has no type name`);
      if (!(f.type >= FieldType.Double && f.type <= FieldType.Sint64)) throw fail(`type ${f.type} is not a field type`);
      return;
    }
    if (f.type !== undefined && isScalar(f.type)) throw fail("a scalar field has a type name");
    const found = this.resolve(scope, f.typeName);
    if (found === undefined) throw fail(`${quote(f.typeName)} is not defined`);
    const [full, d] = found;
    f.type ??= d.kind === "enum" ? FieldType.Enum : FieldType.Message;
    if (f.type === FieldType.Enum && d.kind !== "enum") throw fail(`${quote(f.typeName)} is not an enum type`);
    if (f.type !== FieldType.Enum && d.kind !== "message") throw fail(`${quote(f.typeName)} is not a message type`);
    f.typeName = `.${full}`;
  }

  /** A map field: repeated, of the entry protoc synthesizes for `map<K, V> name`, nested beside the field. */
  private mapField(f: FieldDescriptorProto, scope: string, owner: DescriptorProto | undefined, entry: DescriptorProto, fail: (problem: string) => SchemaError): void {
    const beside = owner !== undefined && f.label === FieldLabel.Repeated && f.typeName === `.${qualified(scope, entry.name)}` && entry.name === mapEntryName(f.name);
    const problem = beside ? mapEntryProblem(entry) : MAP_ENTRY_SET;
    if (problem !== undefined) throw fail(problem);
  }

  /** The default as the model reads it; what protoc cannot parse is an error. */
  private defaultValue(f: FieldDescriptorProto, target: Declaration | undefined, fail: (problem: string) => SchemaError): string {
    const text = f.defaultValue!;
    const type = f.type as FieldType;
    const range = integers[type];
    if (range !== undefined) {
      const m = /^\s*([-+]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)\s*$/.exec(text);
      const value = m && (m[1] === "-" ? -1n : 1n) * BigInt(m[2]!.length > 1 && m[2]![0] === "0" && !/[xX]/.test(m[2]!) ? `0o${m[2]!.slice(1)}` : m[2]!);
      if (value === null) throw fail(`couldn't parse default value ${quote(text)}`);
      if (value < range[0] || value > range[1]) throw fail(`default value ${quote(text)} is out of range`);
      return String(value);
    }
    switch (type) {
      case FieldType.Float: case FieldType.Double: {
        const t = text.trim().toLowerCase();
        if (/^[-+]?nan$/.test(t)) return "nan";
        if (/^[-+]?inf(inity)?$/.test(t)) return t.startsWith("-") ? "-inf" : "inf";
        if (!/^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|0x[0-9a-f]+)$/.test(t)) throw fail(`couldn't parse default value ${quote(text)}`);
        const value = t.startsWith("-0x") ? -Number(t.slice(1)) : Number(t.replace(/^\+/, ""));
        // as the model reads it: -0 keeps its sign, what overflows is infinite
        return Object.is(value, -0) ? "-0" : Number.isFinite(value) ? String(value) : value > 0 ? "inf" : "-inf";
      }
      case FieldType.Bool:
        if (text !== "true" && text !== "false") throw fail("boolean default must be true or false");
        return text;
      case FieldType.Enum: {
        const values = (target as Extract<Declaration, { kind: "enum" }>).d.value ?? [];
        if (!values.some((v) => v.name === text)) throw fail(`enum type ${quote(f.typeName!.slice(1))} has no value named ${quote(text)}`);
        return text;
      }
      case FieldType.Bytes:
        try {
          unescapeBytes(text);
        } catch (e) {
          throw fail(`couldn't parse default value: ${(e as Error).message}`);
        }
        return text;
      default:
        return text;
    }
  }

  private enum(file: Checked, e: EnumDescriptorProto, scope: string, outer: Features): void {
    const name = qualified(scope, e.name);
    const values = e.value ?? [];
    if (values.length === 0) throw this.error(file.d.name, name, "enums must contain at least one value");
    if (!closed(outer, e) && (values[0]!.number ?? 0) !== 0) throw this.error(file.d.name, name, "the first enum value must be zero for open enums");
    const numbers = new Map<number, string>();
    for (const v of values) {
      v.number ??= 0; // as protoc reads a value without one
      const other = numbers.get(v.number);
      if (other !== undefined && !e.options?.allowAlias) {
        throw this.error(file.d.name, qualified(scope, v.name), `uses the same enum value as ${quote(other)} (set option allow_alias = true to allow it)`);
      }
      numbers.set(v.number, v.name);
    }
  }
}

const int64Types = new Set<number>([FieldType.Int64, FieldType.Uint64, FieldType.Sint64, FieldType.Fixed64, FieldType.Sfixed64]);

/** What is wrong with a map entry message, if anything: protoc synthesizes two fields, key 1 (a scalar but float, double or bytes) and value 2, and nothing else. */
function mapEntryProblem(entry: DescriptorProto): string | undefined {
  const fields = entry.field ?? [];
  const [key, value] = fields;
  const slot = (s: FieldDescriptorProto | undefined, name: string, number: number) => s !== undefined && s.name === name && s.number === number && (s.label ?? FieldLabel.Optional) === FieldLabel.Optional;
  const wellFormed = fields.length === 2 && slot(key, "key", 1) && slot(value, "value", 2) &&
    !entry.nestedType?.length && !entry.enumType?.length && !entry.extension?.length && !entry.oneofDecl?.length && !entry.extensionRange?.length;
  if (!wellFormed) return MAP_ENTRY_SET;
  const keyType = key!.type ?? (key!.typeName === undefined ? FieldType.Double : FieldType.Message);
  if (!isScalar(keyType) || keyType === FieldType.Float || keyType === FieldType.Double || keyType === FieldType.Bytes) {
    return "key in map fields cannot be float/double, bytes or message types";
  }
  return undefined;
}

/** Whether an enum is closed, declared where `scope` features hold. */
const closed = (scope: Features, e: EnumDescriptorProto) => withFeatures(scope, e.options?.features).enumType === EnumType.Closed;

/**
 * Whether one of the ranges [start, end) holds a number, in O(log n): a message may declare
 * thousands of fields and ranges, and checking each field against each range is quadratic.
 */
function holding(ranges: readonly (readonly [number, number])[]): (n: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const reach: number[] = []; // the furthest end among sorted[0..i] (ranges may overlap)
  for (const [, end] of sorted) reach.push(Math.max(end, reach.at(-1) ?? 0));
  return (n) => {
    let lo = 0, hi = sorted.length; // then lo: the first range starting after n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]![0] <= n) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && reach[lo - 1]! > n;
  };
}
