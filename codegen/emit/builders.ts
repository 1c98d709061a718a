// Builders: view classes with setters that write the record in place.
import { Label } from "../../ts/schema.js";
import { isMessage, numberKinds, type MessageModel } from "../model.js";
import { literal } from "../names.js";
import { decl, ts } from "../syntax.js";
import { docComment, presenceBit, elementWidth, propertyAccess, member } from "./code.js";
import type { FileContext } from "./context.js";
import { fillValue, fillStatement, oneofFillName } from "./fill.js";
import { plainType } from "./plain.js";
import { viewValueType, viewGetter } from "./views.js";

export function builderDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const lines = [
    `${docComment(`${m.fullName} as a mutable record in linear memory: set fields in place, encode with ${n.type}.encode(builder).`, m.deprecated)}export ${decl("declare ")}class ${n.builder} extends ${n.view} {`,
  ];
  const members = new Set<string>([...m.fields.filter((f) => !f.oneof).map((f) => f.prop), ...m.oneofs.map((o) => o.prop)]);
  const method = (want: string) => {
    let name = want;
    while (members.has(name)) name += "$";
    members.add(name);
    return name;
  };
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const override = ts("override ");
  const w = "const w = $builder.writer(this);";
  // builders extend views: each accessor pair overrides the view's getter
  for (const f of m.fields) {
    if (f.oneof) continue;
    const [getType] = viewGetter(c, f);
    const at = `this.$ptr + ${f.offset}`;
    const acc = propertyAccess(f.prop);
    lines.push(member(undefined, `${override}get ${f.prop}`, [], getType, [`return super${acc};`], f.deprecated));
    const setter = (type: string, body: string[]) => lines.push(member(undefined, `${override}set ${f.prop}`, [["v", `${type} | null | undefined`]], undefined, body, f.deprecated));
    switch (f.label) {
      case Label.Map:
        setter(`$Init<${plainType(c, f)}>`, [w, "const p = this.$ptr;", fillStatement(c, f, "v ?? {}")]);
        break;
      case Label.Repeated: {
        const elem = isMessage(f) ? `$Init<${c.valueType(f)}>` : c.valueType(f);
        setter(numberKinds[f.type] && !isMessage(f) ? `ArrayLike<${elem}>` : `readonly ${elem}[]`, [w, "const p = this.$ptr;", fillStatement(c, f, "v ?? []")]);
        if (isMessage(f)) {
          const sub = c.ref(f.message!, "builder");
          lines.push(member("Appends an element and returns its builder.", method(`add${cap(f.prop)}`), [], sub, [`return $builder.add(this, ${f.offset}, ${f.message!.recordSize}, ${sub});`], f.deprecated));
        } else {
          lines.push(member(undefined, method(`add${cap(f.prop)}`), [["v", elem]], "void", [w, `${fillValue(c, f, `w.push(${at}, ${elementWidth(f)})`, "v", f.name)};`], f.deprecated));
        }
        break;
      }
      default: {
        const type = isMessage(f) ? `$Init<${c.valueType(f)}>` : c.valueType(f);
        const [byte, mask] = f.label === Label.Explicit ? presenceBit(f) : [0, 0];
        const clear = `w.zero(p + ${f.offset}, ${elementWidth(f)});${mask ? ` w.unbit(p + ${byte}, ${mask});` : ""}`;
        setter(type, [w, "const p = this.$ptr;", `if (v == null) { ${clear} }`, `else ${fillStatement(c, f, "v")}`]);
        if (isMessage(f)) {
          const sub = c.ref(f.message!, "builder");
          lines.push(member("The builder of this field, creating the message if it is absent.", method(`mutable${cap(f.prop)}`), [], sub,
            [`return $builder.mutable(this, ${f.offset}, ${f.message!.recordSize}, ${sub}, ${byte}, ${mask});`], f.deprecated));
        }
      }
    }
  }
  for (const o of m.oneofs) {
    const getCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${viewValueType(c, f)} }`).join(" | ");
    const setCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: $Init<${c.valueType(f)}> }`).join(" | ");
    lines.push(member(undefined, `${override}get ${o.prop}`, [], `${getCases} | undefined`, [`return super${propertyAccess(o.prop)};`]));
    lines.push(member(undefined, `${override}set ${o.prop}`, [["v", `${setCases} | null | undefined`]], undefined, [
      w, `w.zero(this.$ptr + ${o.caseOffset}, 4);`, `w.zero(this.$ptr + ${o.valueOffset}, ${Math.max(...o.fields.map(elementWidth))});`,
      `if (v != null) ${oneofFillName(c, m, o)}(w, v, this.$ptr);`,
    ]));
  }
  lines.push(member("Empties the builder for reuse; earlier sub-builders are re-pointed by the next add/mutable call.", "$clear", [], "void", [`$builder.clear(this, ${m.recordSize});`]));
  lines.push(member("Frees the builder's memory; it cannot be used afterwards.", "$release", [], "void", ["this.$arena.release();"]));
  lines.push("}\n");
  return lines.join("\n");
}
