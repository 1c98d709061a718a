// Errors about a .proto file, placed as `file:line:col: message` (what protoc prints, and what
// editors turn into links), found in the text of the files parsed.

/** A .proto file that cannot be loaded, as `file:line:col: message` when the place is known. */
export class ProtoLoadError extends Error {}

/**
 * String literals and comments, each found in one pass: a literal or block comment left open runs
 * to the end of its line or of the text (the parser rejects it), so no match is ever tried again
 * from every later character.
 */
export const literalsAndComments = /("(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;

/** Comments blanked out, every other character where it was; `//` and `/*` inside string literals are text. */
export const withoutComments = (source: string): string =>
  source.replace(literalsAndComments, (c, literal?: string) => literal ?? c.replace(/[^\n]/g, " "));

export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What is read from a file's text (a function kept in a constant: results are kept by it). */
export type Reader<T> = (text: string, file: string) => T;

/**
 * The files of one load: each text as parsed, and what is read from it (once per file). A load
 * keeps its own: the same name with another text is another file, and nothing outlives the load.
 */
export class LoadedSources {
  private readonly files = new Map<string, { text: string; derived: Map<Reader<unknown>, unknown> }>();

  add(file: string, text: string): void {
    this.files.set(file, { text, derived: new Map() });
  }

  text(file: string): string | undefined {
    return this.files.get(file)?.text;
  }

  /** read(text, file) of a file, computed on first use; undefined for a file not parsed. */
  derived<T>(file: string, read: Reader<T>): T | undefined {
    const f = this.files.get(file);
    if (f === undefined) return undefined;
    if (!f.derived.has(read)) f.derived.set(read, read(f.text, file));
    return f.derived.get(read) as T;
  }
}

// the load in progress: its parse and description place errors and read literals in its texts
let active: LoadedSources | undefined;

/** Runs `work` with `sources` as the texts files are read from. */
export function withSources<T>(sources: LoadedSources, work: () => T): T {
  const outer = active;
  active = sources;
  try {
    return work();
  } finally {
    active = outer;
  }
}

/** The text of a file of the load in progress, or undefined. */
const sourceText = (file: string): string | undefined => active?.text(file);

/** read(text, file) of a file of the load in progress, computed once per load; undefined without the file. */
export const fromSource = <T>(file: string, read: Reader<T>): T | undefined => active?.derived(file, read);

/** The file's name as the user knows it: relative to the working directory when inside it (in Node). */
export function shownName(file: string): string {
  const cwd = typeof process === "undefined" ? undefined : process.cwd?.();
  const inside = cwd !== undefined && file.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`);
  return inside ? file.slice(cwd.length + (cwd.endsWith("/") ? 0 : 1)) : file;
}

/**
 * `file:line:col` of the nth match (from 1) of `pattern` (a string: where it occurs) in the file,
 * outside comments; with `line`, of the match on that line. Without a match, `file` (or `file:line:1`).
 */
export function place(file: string, pattern: RegExp | string | undefined, line?: number, nth = 1): string {
  const name = shownName(file);
  const text = sourceText(file);
  if (text === undefined) return name;
  const lines = withoutComments(text).split("\n");
  const from = line === undefined ? 0 : line - 1;
  const global = pattern instanceof RegExp ? new RegExp(pattern.source, pattern.flags.replace("g", "") + "g") : undefined;
  let seen = 0;
  for (let i = from; pattern !== undefined && i < (line === undefined ? lines.length : from + 1); i++) {
    const l = lines[i] ?? "";
    if (global === undefined) {
      for (let at = l.indexOf(pattern as string); at >= 0; at = l.indexOf(pattern as string, at + 1)) if (++seen === nth) return `${name}:${i + 1}:${at + 1}`;
    } else {
      for (const m of l.matchAll(global)) if (++seen === nth) return `${name}:${i + 1}:${m.index + 1}`;
    }
  }
  return line === undefined ? name : `${name}:${line}:1`;
}

/** The error `file:line:col: message`, placed as place() does. */
export function at(file: string, pattern: RegExp | string | undefined, message: string, line?: number, nth = 1): ProtoLoadError {
  return new ProtoLoadError(`${place(file, pattern, line, nth)}: ${message}`);
}

/** The error `file:line:col: message` at a character offset of the file's text. */
export function atOffset(file: string, offset: number, message: string): ProtoLoadError {
  const before = (sourceText(file) ?? "").slice(0, offset);
  const line = before.split("\n").length;
  return new ProtoLoadError(`${shownName(file)}:${line}:${offset - before.lastIndexOf("\n")}: ${message}`);
}

// Patterns made of names from the input: one too long to compile (V8 refuses expressions of tens of
// kilobytes) places its error in the file alone
const MAX_PATTERN = 4096;
/** A pattern to place an error with, or undefined when the names in it make it too long. */
export const searchFor = (source: string): RegExp | undefined => (source.length <= MAX_PATTERN ? new RegExp(source) : undefined);

/** The pattern of a field declaration `name = number` (either may be a pattern). */
export const fieldDeclarationSource = (name: string, number: string): string => `(?<![\\w."])${name}\\s*=\\s*${number}(?![\\w.])`;
/** A field declaration `name = number` (either may be a pattern). */
export const fieldDeclaration = (name: string, number: string): RegExp | undefined => searchFor(fieldDeclarationSource(name, number));
