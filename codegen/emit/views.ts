// Views: classes whose getters read a record in linear memory, and the list class of each message.
import { FieldType, Label } from "../../ts/schema.js";
import { isMessage, numberKinds, sourceDefault, type FieldModel, type MessageModel } from "../model.js";
import { comment, literal } from "../names.js";
import { decl, impl, nonNull, ts } from "../syntax.js";
import { docComment, member } from "./code.js";
import type { FileContext } from "./context.js";
import { plainValue } from "./plain.js";

export function viewValueType(c: FileContext, f: FieldModel): string {
  if (isMessage(f)) return c.ref(f.message!, "view");
  return c.valueType(f);
}

/** Expression reading one value from the slot at address `a` inside a view (m, arena in scope). */
function viewValue(c: FileContext, f: FieldModel, a: string): string {
  if (isMessage(f)) return `new ${c.value(f.message!, "view")}(arena, m.u32[(${a}) >>> 2]${nonNull} || arena.rt.zeroRecord)`;
  if (f.type === FieldType.Bytes) return `$plainBytesView(m, ${a})`;
  return plainValue(c, f, a);
}

/**
 * A getter's first statement: the record must still be there. Written in each getter rather than
 * called (MessageView.$mem()), so that its loads from \`this\` see one view class, not all of them:
 * a shared method's property loads go polymorphic as more message types are viewed, which cost
 * Chromium up to a third of a view's reading time (npm run bench:browser, tick-stream).
 */
const FRESH = "if (this.$gen !== this.$arena.generation) this.$stale();";

export function viewGetter(c: FileContext, f: FieldModel): [string, string] {
  const o = f.offset;
  switch (f.label) {
    case Label.Map: {
      const [key, value] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const keyType = key.type === FieldType.String ? "string" : c.valueType(key);
      const needsArena = isMessage(value);
      const body = `${needsArena ? "const arena = this.$arena; " : ""}return this.$map(${o}, (m, e) => ${plainValue(c, key, `e + ${key.offset}`)}, (m, e) => ${viewValue(c, value, `e + ${value.offset}`)});`;
      return [`$MapView<${keyType}, ${viewValueType(c, value)}>`, body];
    }
    case Label.Repeated: {
      if (isMessage(f)) {
        return [`$ListView<${c.ref(f.message!, "view")}>`,
          `${FRESH} return new ${c.value(f.message!, "list")}(this, this.$m, this.$ptr + ${o});`];
      }
      if (f.type === FieldType.String) return ["$ListView<string>", `return this.$strings(${o});`];
      if (f.type === FieldType.Bytes) return ["$ListView<Uint8Array>", `return this.$bytesList(${o});`];
      if (f.type === FieldType.Bool) return ["boolean[]", `return this.$bools(${o});`];
      const k = numberKinds[f.type]!;
      return [k.array, `return this.$${k.read}s(${o});`];
    }
    default: {
      if (isMessage(f)) {
        return [`${c.ref(f.message!, "view")} | undefined`,
          `${FRESH} const p = this.$m.u32[(this.$ptr + ${o}) >>> 2]${nonNull}; return p === 0 ? undefined : new ${c.value(f.message!, "view")}(this.$arena, p);`];
      }
      // One small function per getter, reading memory directly, so that V8 inlines it whole.
      const read = viewValue(c, f, `this.$ptr + ${o}`);
      const def = f.label === Label.Explicit ? defaultLiteral(c, f) : undefined;
      const bit = f.presence;
      const body = def === undefined ? `return ${read};`
        : `return (m.u8[this.$ptr + ${bit >>> 3}]${nonNull} & ${1 << (bit & 7)}) !== 0 ? ${read} : ${def};`;
      return [c.valueType(f), `${FRESH} const m = this.$m; ${body}`];
    }
  }
}

/** The declared default where it differs from the zero a record holds, else undefined. */
function defaultLiteral(c: FileContext, f: FieldModel): string | undefined {
  const d = sourceDefault(f);
  if (d === undefined) return undefined;
  switch (f.type) {
    case FieldType.String: return literal(String(d));
    case FieldType.Bytes: return `new Uint8Array([${[...String(d)].map((c) => c.charCodeAt(0) & 0xff).join(", ")}])`;
    case FieldType.Bool: case FieldType.Enum: return String(d);
    default: {
      if (numberKinds[f.type]!.ts === "bigint") {
        switch (c.int64As(f)) {
          case "string": return literal(String(d));
          case "number":
            if (!Number.isSafeInteger(Number(d))) throw new Error(`${f.name}: default ${d} is not exact as a JS number; use int64 bigint or string for it`);
            return String(d);
          default: return `${d}n`;
        }
      }
      const v = d as number;
      return Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : String(v);
    }
  }
}

/** A member of a view class: a getter or a method. */
export interface ViewMember {
  doc?: string;
  head: string;
  params: [string, string][];
  returns: string;
  body: string[];
  deprecated?: boolean;
  /** The field's comment in the .proto. */
  source?: string;
}

/** Every member of m's view class: a getter per field and oneof, $has() for explicit presence, $toObject(). */
export function viewMembers(c: FileContext, m: MessageModel): ViewMember[] {
  const n = c.names.get(m)!;
  const out: ViewMember[] = [];
  for (const f of m.fields) {
    if (f.oneof) continue;
    const [type, body] = viewGetter(c, f);
    out.push({ head: `get ${f.prop}`, params: [], returns: type, body: [body], deprecated: f.deprecated, source: f.comment });
  }
  for (const o of m.oneofs) {
    const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${viewValueType(c, f)} }`);
    const body = [`${FRESH} const m = this.$m;${o.fields.some(isMessage) ? " const arena = this.$arena;" : ""} const p = this.$ptr;`];
    body.push(`switch (m.u32[(p + ${o.caseOffset}) >>> 2]) {`);
    for (const f of o.fields) {
      body.push(`  case ${f.number}: return { case: ${literal(f.prop)}, value: ${viewValue(c, f, `p + ${f.offset}`)} };`);
    }
    body.push("  default: return undefined;", "}");
    out.push({ head: `get ${o.prop}`, params: [], returns: `${cases.join(" | ")} | undefined`, body });
  }
  const explicit = m.fields.filter((f) => f.label === Label.Explicit);
  if (explicit.length > 0) {
    const body = ["switch (field) {", ...explicit.map((f) => `  case ${literal(f.prop)}: return this.$bit(${f.presence});`), "}"];
    out.push({ doc: "Whether a field with explicit presence is set.", head: "$has", params: [["field", explicit.map((f) => literal(f.prop)).join(" | ")]], returns: "boolean", body });
  }
  if (c.parts.plain) {
    out.push({ doc: "A plain-object copy that outlives the view.", head: "$toObject", params: [], returns: n.type, body: [`return this.$plain(${n.reader});`] });
  }
  return out;
}

export const viewDoc = (m: MessageModel) => `${m.fullName}: a zero-copy view; valid until its arena is reset or released.`;

export function viewDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const lines = [`${docComment(viewDoc(m), m.deprecated, "", m.comment)}export ${decl("declare ")}class ${n.view} extends $MessageView {`];
  for (const v of viewMembers(c, m)) lines.push(member(v.doc, v.head, v.params, v.returns, v.body, v.deprecated, v.source));
  lines.push("}\n");
  return lines.join("\n");
}

/** The list class of repeated m fields, named `name` in this module: a get() of its own, so each one's call sites stay monomorphic. */
export function listDecl(c: FileContext, m: MessageModel, name: string): string {
  const view = c.ref(m, "view");
  return impl([
    `/** Repeated ${comment(m.fullName)} fields of views. */`,
    `class ${name} extends $MessageList${ts(`<${view}>`)} {`,
    member(undefined, "get", [["i", "number"]], view, [
      "const o = this.owner;",
      "if ((i >>> 0) !== i || i >= this.length || o.$gen !== o.$arena.generation) this.$invalid(i);", // an integer index only (ListView.get)
      `return new ${view}(o.$arena, o.$m.u32[(this.data >>> 2) + i]${nonNull});`,
    ]),
    "}\n",
  ].join("\n"));
}
