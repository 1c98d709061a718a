// Builders: view classes with setters that write the record in place.
import { builderMethodNames } from "../../ts/interpreted/view.js";
import { Label } from "../../ts/schema.js";
import { isMessage, numberKinds, type MessageModel } from "../model.js";
import { literal } from "../names.js";
import { decl, ts } from "../syntax.js";
import { docComment, presenceBit, elementWidth, propertyAccess, member } from "./code.js";
import type { FileContext } from "./context.js";
import { fillValue, fillStatement, oneofFillName } from "./fill.js";
import { plainType } from "./plain.js";
import { viewValueType, viewGetter } from "./views.js";

/** A member of a builder: an accessor overriding the view's getter, or a method. */
export interface BuilderMember {
  doc?: string;
  head: string;
  params: [string, string][];
  returns?: string;
  body: string[];
  deprecated?: boolean;
  /** Overrides a view member (the getters and setters). */
  override?: boolean;
}

/** Every member of m's builder, in order: per field its getter, setter and add/mutable method, then $clear and $release. */
export function builderMembers(c: FileContext, m: MessageModel): BuilderMember[] {
  const out: BuilderMember[] = [];
  const own = m.fields.filter((f) => !f.oneof);
  const methods = builderMethodNames(
    own.map((f) => ({ prop: f.prop, method: f.label === Label.Repeated ? "add" : f.label !== Label.Map && isMessage(f) ? "mutable" : undefined })),
    [...own.map((f) => f.prop), ...m.oneofs.map((o) => o.prop)],
  );
  const w = "const w = $builder.writer(this);";
  own.forEach((f, i) => {
    const [getType] = viewGetter(c, f);
    const at = `this.$ptr + ${f.offset}`;
    const { deprecated } = f;
    out.push({ head: `get ${f.prop}`, params: [], returns: getType, body: [`return super${propertyAccess(f.prop)};`], deprecated, override: true });
    const setter = (type: string, body: string[]) => out.push({ head: `set ${f.prop}`, params: [["v", `${type} | null | undefined`]], body, deprecated, override: true });
    const method = methods[i]!;
    switch (f.label) {
      case Label.Map:
        setter(`$Init<${plainType(c, f)}>`, [w, "const p = this.$ptr;", fillStatement(c, f, "v ?? {}")]);
        break;
      case Label.Repeated: {
        const elem = isMessage(f) ? `$Init<${c.valueType(f)}>` : c.valueType(f);
        setter(numberKinds[f.type] && !isMessage(f) ? `ArrayLike<${elem}>` : `readonly ${elem}[]`, [w, "const p = this.$ptr;", fillStatement(c, f, "v ?? []")]);
        if (isMessage(f)) {
          out.push({ doc: "Appends an element and returns its builder.", head: method, params: [], returns: c.ref(f.message!, "builder"), deprecated,
            body: [`return $builder.add(this, ${f.offset}, ${f.message!.recordSize}, ${c.value(f.message!, "builder")});`] });
        } else {
          out.push({ head: method, params: [["v", elem]], returns: "void", deprecated, body: [w, `${fillValue(c, f, `w.push(${at}, ${elementWidth(f)})`, "v", f.name)};`] });
        }
        break;
      }
      default: {
        const type = isMessage(f) ? `$Init<${c.valueType(f)}>` : c.valueType(f);
        const [byte, mask] = f.label === Label.Explicit ? presenceBit(f) : [0, 0];
        const clear = `w.zero(p + ${f.offset}, ${elementWidth(f)});${mask ? ` w.unbit(p + ${byte}, ${mask});` : ""}`;
        setter(type, [w, "const p = this.$ptr;", `if (v == null) { ${clear} }`, `else ${fillStatement(c, f, "v")}`]);
        if (isMessage(f)) {
          out.push({ doc: "The builder of this field, creating the message if it is absent.", head: method, params: [], returns: c.ref(f.message!, "builder"), deprecated,
            body: [`return $builder.mutable(this, ${f.offset}, ${f.message!.recordSize}, ${c.value(f.message!, "builder")}, ${byte}, ${mask});`] });
        }
      }
    }
  });
  for (const o of m.oneofs) {
    const getCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${viewValueType(c, f)} }`).join(" | ");
    const setCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: $Init<${c.valueType(f)}> }`).join(" | ");
    out.push({ head: `get ${o.prop}`, params: [], returns: `${getCases} | undefined`, body: [`return super${propertyAccess(o.prop)};`], override: true });
    out.push({ head: `set ${o.prop}`, params: [["v", `${setCases} | null | undefined`]], override: true, body: [
      w, `w.zero(this.$ptr + ${o.caseOffset}, 4);`, `w.zero(this.$ptr + ${o.valueOffset}, ${Math.max(...o.fields.map(elementWidth))});`,
      `if (v != null) ${oneofFillName(c, m, o)}(w, v, this.$ptr);`,
    ] });
  }
  out.push({ doc: "Empties the builder for reuse; earlier sub-builders are re-pointed by the next add/mutable call.", head: "$clear", params: [], returns: "void", body: [`$builder.clear(this, ${m.recordSize});`] });
  out.push({ doc: "Frees the builder's memory; it cannot be used afterwards.", head: "$release", params: [], returns: "void", body: ["this.$arena.release();"] });
  return out;
}

export const builderDoc = (c: FileContext, m: MessageModel) =>
  `${m.fullName} as a mutable record in linear memory: set fields in place, encode with ${c.names.get(m)!.type}.encode(builder).`;

export function builderDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  // builders extend views: each accessor pair overrides the view's getter
  const lines = [`${docComment(builderDoc(c, m), m.deprecated)}export ${decl("declare ")}class ${n.builder} extends ${n.view} {`];
  for (const b of builderMembers(c, m)) lines.push(member(b.doc, `${b.override ? ts("override ") : ""}${b.head}`, b.params, b.returns, b.body, b.deprecated));
  lines.push("}\n");
  return lines.join("\n");
}
