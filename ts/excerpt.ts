// What an error message shows of its input. Input may be hostile (a megabyte of digits, a key of a
// million letters), so a message shows only its start, and how long it is.

/** Characters of input an error message shows at most. */
export const SHOWN = 64;

/** The first `n` characters, one fewer when that would split a surrogate pair. */
function start(s: string, n = SHOWN): string {
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/** s as it is when it has at most `max` characters, else its start and "…", `max` in all. */
export function clip(s: string, max: number): string {
  return s.length <= max ? s : `${start(s, max - 1)}…`;
}

/** Input as it is, when short; else its start, "…" and its length. */
export function excerpt(s: string): string {
  return s.length <= SHOWN ? s : `${start(s)}… (${s.length} characters)`;
}

/** Input as a JSON string, when short; else its start's, "…" and its length. */
export function quote(s: string): string {
  return s.length <= SHOWN ? JSON.stringify(s) : `${JSON.stringify(`${start(s)}…`)} (${s.length} characters)`;
}
