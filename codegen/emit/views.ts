// Views: classes whose getters read a record in linear memory, and the list class of each message.
import { FieldType, Label } from "../../ts/schema.js";
import { isMessage, numberKinds, type FieldModel, type MessageModel } from "../model.js";
import { comment, literal } from "../names.js";
import { decl, nonNull, ts } from "../syntax.js";
import { docComment, member } from "./code.js";
import type { FileContext } from "./context.js";
import { plainValue } from "./plain.js";

export function viewValueType(c: FileContext, f: FieldModel): string {
  if (isMessage(f)) return c.ref(f.message!, "view");
  return c.valueType(f);
}

/** Expression reading one value from the slot at address `a` inside a view (m, arena in scope). */
function viewValue(c: FileContext, f: FieldModel, a: string): string {
  if (isMessage(f)) return `new ${c.ref(f.message!, "view")}(arena, m.u32[(${a}) >>> 2]${nonNull} || arena.rt.zeroRecord)`;
  if (f.type === FieldType.Bytes) return `$plain.bytesView(m, ${a})`;
  return plainValue(c, f, a);
}

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
          `const m = this.$mem(), w = (this.$ptr + ${o}) >>> 2; return new ${c.ref(f.message!, "list")}(this, m.u32[w]${nonNull}, m.u32[w + 1]${nonNull});`];
      }
      if (f.type === FieldType.String) return ["$ListView<string>", `return this.$strings(${o});`];
      if (f.type === FieldType.Bytes) return ["$ListView<Uint8Array>", `return this.$bytesList(${o});`];
      if (f.type === FieldType.Bool) return ["boolean[]", `return this.$bools(${o});`];
      const k = numberKinds[f.type]!;
      return [k.array, `return this.$${k.read}s(${o});`];
    }
    default: {
      if (isMessage(f)) return [`${c.ref(f.message!, "view")} | undefined`, `return this.$msg(${o}, ${c.ref(f.message!, "view")});`];
      // One small function per getter, reading memory directly, so that V8 inlines it whole.
      const read = viewValue(c, f, `this.$ptr + ${o}`);
      const def = f.label === Label.Explicit ? defaultLiteral(c, f) : undefined;
      const bit = f.presence;
      const body = def === undefined ? `return ${read};`
        : `return (m.u8[this.$ptr + ${bit >>> 3}]${nonNull} & ${1 << (bit & 7)}) !== 0 ? ${read} : ${def};`;
      return [c.valueType(f), `const m = this.$mem(); ${body}`];
    }
  }
}

/** The declared default where it differs from the zero a record holds, else undefined. */
function defaultLiteral(c: FileContext, f: FieldModel): string | undefined {
  let d = f.defaultValue;
  if (f.type === FieldType.Enum) {
    const values = f.enum!.values;
    const n = typeof d === "string" ? values.find((v) => v.name === d)?.number : typeof d === "number" ? d : f.enum!.closed ? values[0]?.number : 0;
    return n ? String(n) : undefined;
  }
  if (d === undefined) return undefined;
  switch (f.type) {
    case FieldType.String: return d === "" ? undefined : literal(String(d));
    case FieldType.Bytes: {
      const s = String(d);
      return s === "" ? undefined : `new Uint8Array([${[...s].map((c) => c.charCodeAt(0) & 0xff).join(", ")}])`;
    }
    case FieldType.Bool: return d === true || d === "true" ? "true" : undefined;
    default: {
      const k = numberKinds[f.type]!;
      if (k.ts === "bigint") {
        let v = BigInt.asUintN(64, BigInt(typeof d === "number" ? Math.trunc(d) : String(d)));
        if (v === 0n) return undefined;
        if (k.read === "i64") v = BigInt.asIntN(64, v);
        switch (c.int64As(f)) {
          case "string": return literal(String(v));
          case "number":
            if (!Number.isSafeInteger(Number(v))) throw new Error(`${f.name}: default ${v} is not exact as a JS number; use int64 bigint or string for it`);
            return String(v);
          default: return `${v}n`;
        }
      }
      let v = typeof d === "number" ? d : d === "inf" ? Infinity : d === "-inf" ? -Infinity : d === "nan" ? NaN : Number(d);
      if (f.type === FieldType.Float) v = Math.fround(v); // what the field reads when set to it
      if (Object.is(v, 0)) return undefined;
      return Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : String(v);
    }
  }
}

export function viewDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const lines = [
    `${docComment(`${m.fullName}: a zero-copy view; valid until its arena is reset or released.`, m.deprecated)}export ${decl("declare ")}class ${n.view} extends $MessageView {`,
  ];
  for (const f of m.fields) {
    if (f.oneof) continue;
    const [type, body] = viewGetter(c, f);
    lines.push(member(undefined, `get ${f.prop}`, [], type, [body], f.deprecated));
  }
  for (const o of m.oneofs) {
    const cases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${viewValueType(c, f)} }`);
    const body = [`const m = this.$mem();${o.fields.some(isMessage) ? " const arena = this.$arena;" : ""} const p = this.$ptr;`];
    body.push(`switch (m.u32[(p + ${o.caseOffset}) >>> 2]) {`);
    for (const f of o.fields) {
      body.push(`  case ${f.number}: return { case: ${literal(f.prop)}, value: ${viewValue(c, f, `p + ${f.offset}`)} };`);
    }
    body.push("  default: return undefined;", "}");
    lines.push(member(undefined, `get ${o.prop}`, [], `${cases.join(" | ")} | undefined`, body));
  }
  const explicit = m.fields.filter((f) => f.label === Label.Explicit);
  if (explicit.length > 0) {
    const body = ["switch (field) {", ...explicit.map((f) => `  case ${literal(f.prop)}: return this.$bit(${f.presence});`), "}"];
    lines.push(member("Whether a field with explicit presence is set.", "$has", [["field", explicit.map((f) => literal(f.prop)).join(" | ")]], "boolean", body));
  }
  if (c.parts.plain) {
    lines.push(member("A plain-object copy that outlives the view.", "$toObject", [], n.type, [`return ${n.reader}(this.$mem(), this.$ptr, this.$arena.rt);`]));
  }
  lines.push("}\n");
  lines.push(listDecl(c, m));
  return lines.join("\n");
}

/** The list class of a repeated field of m: a get() of its own, so each one's call sites stay monomorphic. */
export function listDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  return [
    `/** Repeated ${comment(m.fullName)} fields of views. */`,
    `export ${decl("declare ")}class ${n.list} extends $MessageList${ts(`<${n.view}>`)} {`,
    member(undefined, "get", [["i", "number"]], n.view, [
      "const o = this.owner;",
      "if (!(i >= 0 && i < this.length) || o.$gen !== o.$arena.generation) this.$invalid(i);",
      `return new ${n.view}(o.$arena, o.$m.u32[(this.data >>> 2) + i]${nonNull});`,
    ]),
    "}\n",
  ].join("\n");
}
