// Parses .proto text with protobufjs, wherever the text comes from: files found through include
// paths (load.ts, in Node) or sources held in memory (browsers). protobufjs's well-known types are
// built in. Nothing here touches a file system.
import protobuf from "protobufjs";
import { checkDeclarations } from "./check.js";
import { unescapeBytes } from "./descriptor.js";
import {
  at, atOffset, escape, fieldDeclaration, fieldDeclarationSource, fromSource, literalsAndComments, LoadedSources, ProtoLoadError, searchFor, shownName, withoutComments, withSources, type Reader,
} from "./located.js";
import { declarationKey, integerLiteral, scanDeclarations, type ScannedFile } from "./scan.js";
import { loadedForOptionsOnly, optionImports } from "./optionimports.js";
import { excerpt } from "../ts/excerpt.js";

export { ProtoLoadError };

// protobufjs knows the numbered editions only; the edition in development ("UNSTABLE", which
// protobuf's own tests use) has the newest edition's features, so it is read as that one.
const NEWEST_EDITION = "2026";

// protobufjs silently drops anything named "__proto__" (its name tables are plain objects), where
// protoc accepts it. Such identifiers are read under a stand-in of the same length (error positions
// stay right) and the model names them back with realName().
const dunderProto = "__proto__";
const standIn = "__pr0t0__";
const dunderProtoTokens = new RegExp(`${literalsAndComments.source}|\\b__proto__\\b`, "g");
const renameDunderProto = (source: string) => source.replace(dunderProtoTokens, (token) => (token === dunderProto ? standIn : token));
/** A name (or dotted full name) as written in the .proto file. */
export const realName = (name: string): string => name.replaceAll(standIn, dunderProto);
/** A name as protobufjs holds it, for lookups in the parsed root. */
export const parsedName = (name: string): string => name.replaceAll(dunderProto, standIn);

/**
 * The text as protobufjs can parse it: `extensions` statements in group bodies blanked (protobufjs
 * 8 cannot parse them; withGroupExtensions adds their ranges back), the UNSTABLE edition named as the
 * newest, `__proto__` renamed. Every character stays where it was, for error positions, but on the
 * edition's line.
 */
function fixSource(text: string, scanned: ScannedFile): string {
  const parts: string[] = [];
  let copied = 0; // text up to here is in parts
  const replace = (from: number, to: number, by: string) => {
    parts.push(text.slice(copied, from), by);
    copied = to;
  };
  const edition = scanned.syntax;
  if (edition?.keyword === "edition" && edition.value === "UNSTABLE") replace(edition.offset, edition.offset + '"UNSTABLE"'.length, `"${NEWEST_EDITION}"`);
  for (const { at: [from, to] } of scanned.groupExtensions) replace(from, to, text.slice(from, to).replace(/[^\n]/g, " "));
  parts.push(text.slice(copied));
  return renameDunderProto(parts.join(""));
}

/** The extension ranges of the group bodies fixSource blanked, on the groups protobufjs parsed (the descriptors declare them, as protoc's). */
function withGroupExtensions(root: protobuf.Root, scanned: ScannedFile): void {
  for (const { group, ranges } of scanned.groupExtensions) {
    const type = root.lookup(`.${parsedName(group)}`);
    if (type instanceof protobuf.Type) (type.extensions ??= []).push(...ranges);
  }
}

// protobufjs's parser needs the fixes below. They are installed on protobufjs's classes only while
// parseProtos parses (synchronously), then removed: a program's own use of protobufjs never sees them.
type Fix = [target: object, key: string, value: PropertyDescriptor];

// protobufjs 8 parses a `group` inside a `oneof` by adding the group's type to the OneOf, which
// throws "field must be a Field". Hold such types on the oneof and hand them to the message the
// oneof joins, which is where protoc puts them.
type OneOfWithGroups = protobuf.OneOf & { pendingTypes?: protobuf.Type[] };
const oneofAdd = protobuf.OneOf.prototype.add;
const oneofOnAdd = protobuf.OneOf.prototype.onAdd;
const groupsInOneofs: Fix[] = [
  [protobuf.OneOf.prototype, "add", {
    value(this: OneOfWithGroups, obj: protobuf.Field | protobuf.Type) {
      if (!(obj instanceof protobuf.Type)) return oneofAdd.call(this, obj);
      (this.pendingTypes ??= []).push(obj);
      return this;
    },
  }],
  [protobuf.OneOf.prototype, "onAdd", {
    value(this: OneOfWithGroups, parent: protobuf.ReflectionObject) {
      oneofOnAdd.call(this, parent);
      for (const t of this.pendingTypes ?? []) (parent as protobuf.Type).add(t);
      this.pendingTypes = undefined;
    },
  }],
];

// protobufjs 8's Type.add checks for a duplicate field number through fieldsById, a cache that
// every add clears and the next add rebuilds from all fields: quadratic in a message's fields
// (5,000 fields took 4 s). The cache is kept up to date across each add instead.
type TypeCaches = protobuf.Type & { _fieldsById: { [id: number]: protobuf.Field } | null };
const typeAdd = protobuf.Type.prototype.add;
const linearTypeAdd: Fix = [protobuf.Type.prototype, "add", {
  value(this: TypeCaches, obj: protobuf.ReflectionObject) {
    const field = obj instanceof protobuf.Field && obj.extend === undefined;
    const byId = field ? this.fieldsById : null; // built once, then kept below
    const result = typeAdd.call(this, obj);
    if (byId !== null && this.fields[(obj as protobuf.Field).name] === obj) {
      byId[(obj as protobuf.Field).id] = obj as protobuf.Field;
      this._fieldsById = byId;
    }
    return result;
  },
}];

// protobufjs merges `option (a).b = 1;` into an earlier `option (a) = {...};` of the same
// declaration (and `[(a).b = 1, (a).c = 2]` into one), where protoc writes each statement as an
// occurrence of its own: a custom option's statements are kept apart, so that encodeCustomOptions
// writes protoc's bytes (features, which protoc merges, are left to protobufjs).
const setParsedOption = protobuf.ReflectionObject.prototype.setParsedOption;
const optionStatementsApart: Fix = [protobuf.ReflectionObject.prototype, "setParsedOption", {
  value(this: protobuf.ReflectionObject, name: string, value: unknown, propName?: string) {
    if (!propName || !name.startsWith("(")) return setParsedOption.call(this, name, value, propName as string);
    (this.parsedOptions ??= []).push({ [name]: protobuf.util.setProperty({}, propName, value as object) });
    return this;
  },
}];

// protobufjs clears parse.filename when a speculative parse inside a try/catch fails (editions
// files hit this), and every message after that loses its file. parseProtos sets the name before
// each file, so ignoring the clears keeps it right. Errors are placed in it too.
let parsingFile: string | null = null;

/** Runs parse with the fixes installed, and removes them after. */
function withParserFixes<T>(parse: () => T): T {
  parsingFile = null;
  const fixes: Fix[] = [
    ...groupsInOneofs, linearTypeAdd, optionStatementsApart,
    [protobuf.parse, "filename", {
      get: () => parsingFile,
      set: (name: string | null) => {
        if (name !== null) parsingFile = name;
      },
    }],
  ];
  const saved = fixes.map(([target, key]) => Object.getOwnPropertyDescriptor(target, key));
  for (const [target, key, value] of fixes) Object.defineProperty(target, key, { ...value, configurable: true });
  try {
    return parse();
  } finally {
    fixes.forEach(([target, key], i) => {
      const before = saved[i];
      if (before) Object.defineProperty(target, key, before);
      else delete (target as Record<string, unknown>)[key];
    });
  }
}

/** The file that declares o: its own or its nearest parent's (protobufjs's built-in well-known types have none). */
export function declaringFile(o: protobuf.ReflectionObject): string | undefined {
  for (let p: protobuf.ReflectionObject | null = o; p; p = p.parent) if (p.filename) return p.filename;
  return undefined;
}

/** A parsed .proto file's text with its comments blanked (string literals kept), or "" for a file not parsed. */
export const sourceOf = (file: string): string => fromSource(file, withoutComments) ?? "";

const scanFile: Reader<ScannedFile> = (_text, file) => scanDeclarations(sourceOf(file));
/** What scan.ts reads from a parsed file's text. */
export const scannedOf = (file: string): ScannedFile | undefined => fromSource(file, scanFile);

/** The `default = ...` literal of a field's declaration as written, or undefined (no file, not found). */
function defaultLiteral(f: protobuf.Field): string | undefined {
  const file = declaringFile(f);
  const scope = f.parent ? realName(f.parent.fullName.slice(1)) : "";
  return file === undefined ? undefined : scannedOf(file)?.defaults.get(declarationKey(scope, realName(f.name), f.id));
}

/**
 * A 64-bit integer field's default as written: protobufjs parses it into a JS number, which
 * rounds values beyond 2^53.
 */
export function exactIntegerDefault(f: protobuf.Field): bigint | undefined {
  const text = defaultLiteral(f);
  return text !== undefined && /^-?(?:0[xX][0-9a-fA-F]+|\d+)$/.test(text) ? integerLiteral(text) : undefined;
}

/**
 * A string or bytes field's default as bytes: escapes in .proto strings are bytes ("\341\210\264"
 * is the UTF-8 of one character), where protobufjs makes one character of each.
 */
export function defaultBytes(f: protobuf.Field): Uint8Array | undefined {
  const text = defaultLiteral(f);
  return text?.startsWith('"') ? unescapeBytes(text.slice(1, -1)) : undefined;
}


export interface LoadedFiles {
  root: protobuf.Root;
  /** Import name (path relative to its include directory) by file name as parsed. */
  importNames: Map<string, string>;
  /** Import names of the files protobufjs supplied (its well-known types): their copies carry no comments. */
  wellKnown: Set<string>;
  /** The texts parsed: describing the files reads literals from them and places errors in them. */
  sources: LoadedSources;
  /** Import names of the files loaded only for the options they declare (`import option`): not described. */
  forOptionsOnly: Set<string>;
}

/** Where parseProtos finds files: a file system with include paths, or sources in memory. */
export interface ProtoHost {
  /** The file an import names (`origin` imports it), as read() takes it; throws a placed error when there is none. */
  resolve(target: string, origin: string): string;
  /** A file's text. */
  read(file: string): string;
  /** A file's import name: its path below its include directory. */
  importName(file: string): string;
}

/** The name protobufjs keeps a well-known type under when `target` names one of its built-in copies. */
export function builtInName(target: string): string | undefined {
  const at = target.lastIndexOf("google/protobuf/");
  const name = at < 0 ? target : target.slice(at);
  return name.endsWith(".proto") && Object.hasOwn(protobuf.common, name) ? name : undefined;
}

/**
 * Parses `files` and what they import (each once), resolves every type and checks what protoc
 * would reject. Imports of protobufjs's built-in well-known types use its copies, as its own
 * loader does.
 */
export function parseProtos(files: readonly string[], host: ProtoHost): LoadedFiles {
  const sources = new LoadedSources();
  return withSources(sources, () => ({ ...parseAll(files, host, sources), sources }));
}

function parseAll(files: readonly string[], host: ProtoHost, sources: LoadedSources): Omit<LoadedFiles, "sources"> {
  const root = new protobuf.Root();
  const importNames = new Map<string, string>();
  const wellKnown = new Set<string>();
  const seen = new Set<string>();
  const dependencies = new Map<string, string[]>(); // each file's ordinary imports
  const load = (file: string, weak: boolean) => {
    const builtIn = builtInName(file);
    const name = builtIn ?? file;
    if (seen.has(name)) return;
    seen.add(name);
    if (builtIn !== undefined) {
      const json = (protobuf.common as unknown as Record<string, { options?: Record<string, unknown>; nested: protobuf.INamespace["nested"] }>)[builtIn]!;
      if (json.options) root.setOptions(json.options);
      root.addJSON(json.nested!);
      importNames.set(builtIn, builtIn);
      wellKnown.add(builtIn);
      return;
    }
    let text: string;
    try {
      text = host.read(file);
    } catch (e) {
      if (weak) return; // a weak import may be missing, as with protoc
      throw e;
    }
    sources.add(file, text);
    const scanned = scannedOf(file)!;
    if (scanned.tooDeep) throw atOffset(file, scanned.tooDeep.offset, scanned.tooDeep.message);
    importNames.set(file, host.importName(file));
    (protobuf.parse as unknown as { filename: string | null }).filename = file;
    const parsed = protobuf.parse(fixSource(text, scanned), root, { keepCase: true, alternateCommentMode: true });
    withGroupExtensions(root, scanned);
    const imported = (target: string) => builtInName(target) ?? host.resolve(target, file);
    const deps: string[] = [];
    dependencies.set(name, deps);
    const ordinary = (target: string) => {
      const found = imported(target);
      deps.push(builtInName(found) ?? found);
      return found;
    };
    for (const target of parsed.imports ?? []) load(ordinary(target), false);
    for (const target of parsed.weakImports ?? []) load(ordinary(target), true);
    for (const target of optionImports(text)) load(imported(target), false);
  };
  try {
    // comments: the one before an element, else the one after it on its line (as protoc's leading and trailing comments)
    withParserFixes(() => {
      for (const f of files) load(f, false);
      root.resolveAll();
    });
  } catch (e) {
    if (e instanceof ProtoLoadError) throw e;
    throw placed(e as Error, root);
  }
  checkDeclarations(root);
  const forOptionsOnly = loadedForOptionsOnly(files.map((f) => builtInName(f) ?? f), seen, dependencies);
  return { root, importNames, wellKnown, forOptionsOnly: new Set([...forOptionsOnly].map((f) => importNames.get(f) ?? f)) };
}

/** protobufjs's reason with what it quotes ('name') excerpted: a token may be a megabyte long. */
const shownReason = (reason: string): string => reason.replace(/'([^']*)'/g, (_, quoted: string) => `'${excerpt(quoted)}'`);

/** protobufjs's errors, placed in their file: syntax errors carry a line; unresolved types are found by name. */
function placed(e: Error, root: protobuf.Root): ProtoLoadError {
  const message = realName(e.message);
  // the tokenizer's errors leave out the file: it is the one being parsed
  const syntax = /^(.*) \((?:(.+), )?line (\d+)\)$/.exec(message);
  const file = syntax?.[2] ?? parsingFile;
  if (syntax && file !== null) return at(file, /'([^']*)'/.exec(syntax[1]!)?.[1] || undefined, shownReason(syntax[1]!), Number(syntax[3]));
  if (parsingFile !== null) {
    // protobufjs finds these while parsing parsingFile, and names neither file nor place
    const duplicateName = /^duplicate name '([^']+)' in (?:Type|Enum|Namespace|Service) \.?(.*)$/.exec(message);
    if (duplicateName) {
      const [, name, owner] = duplicateName as unknown as [string, string, string];
      const declared = searchFor(`${fieldDeclarationSource(escape(name), "-?\\w+")}|\\b(?:message|enum|service|oneof)\\s+${escape(name)}\\b`);
      return at(parsingFile, declared, `"${excerpt(name)}" is already defined in "${excerpt(owner)}"`, undefined, 2);
    }
    const duplicateId = /^duplicate id (\d+) in Type \.?(.*)$/.exec(message);
    if (duplicateId) {
      const [, id, owner] = duplicateId as unknown as [string, string, string];
      return at(parsingFile, fieldDeclaration("\\w+", id), `field number ${id} has already been used in "${excerpt(owner)}"`, undefined, 2);
    }
    const reservedId = /^id (\d+) is reserved in Type \.?(.*)$/.exec(message);
    if (reservedId) return at(parsingFile, fieldDeclaration("\\w+", reservedId[1]!), `field number ${reservedId[1]} is reserved in "${excerpt(reservedId[2]!)}"`);
    const reservedName = /^name '([^']+)' is reserved in Type \.?(.*)$/.exec(message);
    if (reservedName) return at(parsingFile, fieldDeclaration(escape(reservedName[1]!), "\\d+"), `field name "${excerpt(reservedName[1]!)}" is reserved in "${excerpt(reservedName[2]!)}"`);
    const syntaxName = /^Unknown edition: (.*)$/.exec(message);
    if (syntaxName) {
      return at(parsingFile, /\bsyntax\b/, `unknown syntax "${excerpt(syntaxName[1]!)}": hppproto-gen reads proto2, proto3 and editions (edition = "2023")`);
    }
  }
  const unresolved = /^no such Type or Enum '([^']+)' in (?:Type|Namespace) \.?(.*)$/.exec(e.message);
  if (unresolved) {
    const owner = root.lookup(unresolved[2]!);
    const file = owner ? declaringFile(owner) : undefined;
    if (file) {
      const reference = escape(unresolved[1]!).replace(/^\\\./, "\\.?");
      return at(file, searchFor(`(?<![\\w.])${reference}(?![\\w])`), `unknown type ${excerpt(realName(unresolved[1]!))}`);
    }
  }
  return new ProtoLoadError(parsingFile === null ? shownReason(message) : `${shownName(parsingFile)}: ${shownReason(message)}`);
}
