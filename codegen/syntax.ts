// One emitted text, three outputs: the emitter marks what only TypeScript has (types, casts,
// non-null assertions), what only an implementation has (bodies, initializers, private helpers)
// and what only a declaration file has (`declare`, the `;` ending a signature). render() keeps or
// drops each marked span, so `--target js` needs no compiler: the generator wrote every type.
export type Syntax = "ts" | "js" | "dts";

const TYPE = ["\u0001", "\u0002"] as const;
const IMPL = ["\u0003", "\u0004"] as const;
const DECL = ["\u0005", "\u0006"] as const;

/** Text for TypeScript only: kept in .ts and .d.ts, dropped from .js. */
export const ts = (text: string): string => TYPE[0] + text + TYPE[1];
/** Text an implementation has and a declaration file does not: kept in .ts and .js. */
export const impl = (text: string): string => IMPL[0] + text + IMPL[1];
/** Text for the declaration file only. */
export const decl = (text: string): string => DECL[0] + text + DECL[1];

/** The non-null assertion `!`, TypeScript only. */
export const nonNull: string = ts("!");

/** A parameter list and return type: `(a: A, b: B): R`, with the types marked as TypeScript. */
export function signature(params: readonly (readonly [string, string])[], returns?: string): string {
  const list = params.map(([name, type]) => name + ts(`: ${type}`)).join(", ");
  return `(${list})${returns === undefined ? "" : ts(`: ${returns}`)}`;
}

/** The text as `syntax` has it. Spans nest; a dropped span drops everything inside it. */
export function render(text: string, syntax: Syntax): string {
  const keeps = (open: string) =>
    open === TYPE[0] ? syntax !== "js" : open === IMPL[0] ? syntax !== "dts" : syntax === "dts";
  let out = "";
  let dropDepth = 0; // > 0 inside a dropped span
  const stack: boolean[] = []; // per open span: does it drop?
  for (const part of text.split(/([\u0001-\u0006])/)) {
    if (part === TYPE[0] || part === IMPL[0] || part === DECL[0]) {
      const drop = !keeps(part);
      stack.push(drop);
      if (drop) dropDepth++;
    } else if (part === TYPE[1] || part === IMPL[1] || part === DECL[1]) {
      if (stack.pop()) dropDepth--;
    } else if (dropDepth === 0) {
      out += part;
    }
  }
  if (stack.length !== 0) throw new Error("hppproto-gen bug: unbalanced syntax markers");
  return out.replace(/\n{3,}/g, "\n\n"); // a dropped declaration leaves no gap
}
