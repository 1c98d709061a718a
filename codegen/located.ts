// Errors about a .proto file, placed as `file:line:col: message` (what protoc prints, and what
// editors turn into links).
import * as fs from "node:fs";
import * as path from "node:path";

/** A .proto file that cannot be loaded, as `file:line:col: message` when the place is known. */
export class ProtoLoadError extends Error {}

/** Comments blanked out, every other character where it was; `//` and `/*` inside string literals are text. */
export const withoutComments = (source: string): string =>
  source.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (c, literal?: string) => literal ?? c.replace(/[^\n]/g, " "));

export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The file's name as the user knows it: relative to the working directory when inside it. */
export function shownName(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") ? relative : file;
}

/**
 * `file:line:col` of the nth match (from 1) of `pattern` in the file, outside comments; with
 * `line`, of the match on that line. Without a match, `file` (or `file:line:1`).
 */
export function place(file: string, pattern: RegExp | undefined, line?: number, nth = 1): string {
  const name = shownName(file);
  let source: string;
  try {
    source = withoutComments(fs.readFileSync(file, "utf8"));
  } catch {
    return name;
  }
  const lines = source.split("\n");
  const from = line === undefined ? 0 : line - 1;
  const global = pattern && new RegExp(pattern.source, pattern.flags.replace("g", "") + "g");
  let seen = 0;
  for (let i = from; global && i < (line === undefined ? lines.length : from + 1); i++) {
    for (const m of (lines[i] ?? "").matchAll(global)) {
      if (++seen === nth) return `${name}:${i + 1}:${m.index + 1}`;
    }
  }
  return line === undefined ? name : `${name}:${line}:1`;
}

/** The error `file:line:col: message`, placed as place() does. */
export function at(file: string, pattern: RegExp | undefined, message: string, line?: number, nth = 1): ProtoLoadError {
  return new ProtoLoadError(`${place(file, pattern, line, nth)}: ${message}`);
}

/** A field declaration `name = number` (either may be a pattern). */
export const fieldDeclaration = (name: string, number: string): RegExp => new RegExp(`(?<![\\w."])${name}\\s*=\\s*${number}(?![\\w.])`);
