// Errors about a .proto file, placed as `file:line:col: message` (what protoc prints, and what
// editors turn into links), found in the text of the files parsed.

/** A .proto file that cannot be loaded, as `file:line:col: message` when the place is known. */
export class ProtoLoadError extends Error {}

/** Comments blanked out, every other character where it was; `//` and `/*` inside string literals are text. */
export const withoutComments = (source: string): string =>
  source.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (c, literal?: string) => literal ?? c.replace(/[^\n]/g, " "));

export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const texts = new Map<string, string>();

/** Keeps a file's text as parsed, for placing errors in it. */
export function rememberSource(file: string, text: string): void {
  texts.set(file, text);
}

/** The text of a file parsed, or undefined. */
export const sourceText = (file: string): string | undefined => texts.get(file);

/** The file's name as the user knows it: relative to the working directory when inside it (in Node). */
export function shownName(file: string): string {
  const cwd = typeof process === "undefined" ? undefined : process.cwd?.();
  const inside = cwd !== undefined && file.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`);
  return inside ? file.slice(cwd.length + (cwd.endsWith("/") ? 0 : 1)) : file;
}

/**
 * `file:line:col` of the nth match (from 1) of `pattern` in the file, outside comments; with
 * `line`, of the match on that line. Without a match, `file` (or `file:line:1`).
 */
export function place(file: string, pattern: RegExp | undefined, line?: number, nth = 1): string {
  const name = shownName(file);
  const text = sourceText(file);
  if (text === undefined) return name;
  const lines = withoutComments(text).split("\n");
  const from = line === undefined ? 0 : line - 1;
  const global = pattern && new RegExp(pattern.source, pattern.flags.replace("g", "") + "g");
  let seen = 0;
  try {
    for (let i = from; global && i < (line === undefined ? lines.length : from + 1); i++) {
      for (const m of (lines[i] ?? "").matchAll(global)) {
        if (++seen === nth) return `${name}:${i + 1}:${m.index + 1}`;
      }
    }
  } catch (e) {
    // a pattern made of a name of (say) a megabyte is too large to compile: the place is not found
    if (!(e instanceof SyntaxError)) throw e;
  }
  return line === undefined ? name : `${name}:${line}:1`;
}

/** The error `file:line:col: message`, placed as place() does. */
export function at(file: string, pattern: RegExp | undefined, message: string, line?: number, nth = 1): ProtoLoadError {
  return new ProtoLoadError(`${place(file, pattern, line, nth)}: ${message}`);
}

/** A field declaration `name = number` (either may be a pattern). */
export const fieldDeclaration = (name: string, number: string): RegExp => new RegExp(`(?<![\\w."])${name}\\s*=\\s*${number}(?![\\w.])`);
