// Identifiers for generated code that are safe whatever a .proto names things. Protobuf names are
// [A-Za-z_][A-Za-z0-9_]*, so a "$" suffix can never collide with another protobuf name.

/** Words that cannot name a module-level binding, plus globals the generated code refers to. */
const reservedTopLevel = new Set([
  // JS reserved words and strict-mode restrictions
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
  "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
  "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
  "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected",
  "public", "await", "arguments", "eval",
  // TS type names
  "any", "boolean", "number", "string", "symbol", "never", "object", "unknown", "bigint", "undefined",
  "type", "declare", "module", "namespace", "abstract", "as", "async", "is", "keyof", "readonly", "require",
  // globals used by generated code
  "Array", "Uint8Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array",
  "BigUint64Array", "Object", "Record", "Map", "ReadonlyMap", "Iterable", "NaN", "Infinity", "BigInt",
  "String", "Number", "Boolean", "Symbol", "Error", "Promise", "globalThis", "Partial", "Readonly",
]);

export function topLevelName(name: string): string {
  return reservedTopLevel.has(name) ? name + "$" : name;
}

/** A string literal for generated code. */
/** A JS string literal; C1 control characters (bytes held one per char) escaped, so that they show. */
export const literal = (s: string): string => JSON.stringify(s).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * Text from input files (paths, names, .proto comments) as it may stand inside a generated comment:
 * a line terminator (U+2028 and U+2029 are ones in JavaScript) would end a `//` comment and `*\/` a
 * block comment, letting the rest run as code, and U+0001-U+0006 are syntax.ts's span markers,
 * which would make render() drop generated code. Control characters are written as \uXXXX. Every
 * comment the emitter writes goes through this.
 */
export const comment = (text: string): string =>
  text.replace(/\*\//g, "*\\/").replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
