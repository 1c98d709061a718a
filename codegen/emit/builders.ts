// Builders: the view class with setters that write the record in place. Their code is the
// runtime's (ts/interpreted/view.ts, from the schema); generated code declares their types and
// makes each class from its view class.
import { builderMethodNames } from "../../ts/interpreted/view.js";
import { Label } from "../../ts/schema.js";
import { isMessage, numberKinds, type MessageModel } from "../model.js";
import { literal } from "../names.js";
import { decl, impl, signature, ts } from "../syntax.js";
import { docComment } from "./code.js";
import type { FileContext } from "./context.js";
import { plainType } from "./plain.js";
import { viewValueType, viewGetter } from "./views.js";

/** A member of a builder interface: an accessor (its getter is the view's) or a method. */
interface BuilderMember {
  doc?: string;
  head: string;
  params: [string, string][];
  returns?: string;
  deprecated?: boolean;
  /** The field's comment in the .proto (on the getter). */
  source?: string;
}

/** Every member of m's builder, in order: per field its getter, setter and add/mutable method, then $clear and $release. */
function builderMembers(c: FileContext, m: MessageModel): BuilderMember[] {
  const out: BuilderMember[] = [];
  const own = m.fields.filter((f) => !f.oneof);
  const methods = builderMethodNames(
    own.map((f) => ({ prop: f.prop, method: f.label === Label.Repeated ? "add" : f.label !== Label.Map && isMessage(f) ? "mutable" : undefined })),
    [...own.map((f) => f.prop), ...m.oneofs.map((o) => o.prop)],
  );
  own.forEach((f, i) => {
    const [getType] = viewGetter(c, f);
    const { deprecated } = f;
    out.push({ head: `get ${f.prop}`, params: [], returns: getType, deprecated, source: f.comment });
    const setter = (type: string) => out.push({ head: `set ${f.prop}`, params: [["v", `${type} | null | undefined`]], deprecated });
    const method = methods[i]!;
    switch (f.label) {
      case Label.Map:
        setter(`$Init<${plainType(c, f)}>`);
        break;
      case Label.Repeated: {
        const elem = isMessage(f) ? `$Init<${c.valueType(f)}>` : c.valueType(f);
        setter(numberKinds[f.type] && !isMessage(f) ? `ArrayLike<${elem}>` : `readonly ${elem}[]`);
        if (isMessage(f)) out.push({ doc: "Appends an element and returns its builder.", head: method, params: [], returns: c.ref(f.message!, "builder"), deprecated });
        else out.push({ doc: "Appends an element.", head: method, params: [["v", elem]], returns: "void", deprecated });
        break;
      }
      default:
        setter(isMessage(f) ? `$Init<${c.valueType(f)}>` : c.valueType(f));
        if (isMessage(f)) out.push({ doc: "The builder of this field, creating the message if it is absent.", head: method, params: [], returns: c.ref(f.message!, "builder"), deprecated });
    }
  });
  for (const o of m.oneofs) {
    const getCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: ${viewValueType(c, f)} }`).join(" | ");
    const setCases = o.fields.map((f) => `{ case: ${literal(f.prop)}; value: $Init<${c.valueType(f)}> }`).join(" | ");
    out.push({ head: `get ${o.prop}`, params: [], returns: `${getCases} | undefined` });
    out.push({ head: `set ${o.prop}`, params: [["v", `${setCases} | null | undefined`]] });
  }
  out.push({ doc: "Empties the builder for reuse; earlier sub-builders are re-pointed by the next add/mutable call.", head: "$clear", params: [], returns: "void" });
  out.push({ doc: "Frees the builder's memory; it cannot be used afterwards.", head: "$release", params: [], returns: "void" });
  return out;
}

/** The builder's type: its view's, with a setter beside each getter, and the builder methods. */
export function builderInterface(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const doc = `${m.fullName} as a mutable record in linear memory: set fields in place, encode with ${n.type}.encode(builder).`;
  const members = builderMembers(c, m).map((b) => `${docComment(b.doc, b.deprecated ?? false, "  ", b.source)}  ${b.head}${signature(b.params, b.returns)};`);
  return ts(`${docComment(doc, m.deprecated, "", m.comment)}export interface ${n.builder} extends ${n.view} {\n${members.join("\n")}\n}\n`);
}

/** The builder's type, and its class: the view class with setters the runtime makes from the schema. */
export function builderDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  return builderInterface(c, m) + "\n" +
    `export ${decl("declare ")}const ${n.builder}${ts(`: $ViewClass<${n.builder}>`)}${impl(` = /* @__PURE__ */ $interpretedBuilder(${n.view}, ${c.schemaOf(m)})`)};\n`;
}
