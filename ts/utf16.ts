// JS strings are UTF-16 and may hold lone surrogates, which have no UTF-8 form: protobuf strings
// refuse them, and text written through UTF-8 cannot carry them.

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** String.prototype.isWellFormed (ES2024), with a fallback for older engines. */
export function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(s) : !loneSurrogate.test(s);
}
