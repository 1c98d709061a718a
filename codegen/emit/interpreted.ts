// CODE_SIZE modules (protobuf's optimize_for = CODE_SIZE, or --optimize_for code_size): per
// message only its types and a message type whose facades the runtime interprets from the schema
// (ts/interpreted), so that the module holds no code per field.
import type { MessageModel } from "../model.js";
import { decl, impl, signature, ts } from "../syntax.js";
import { builderInterface } from "./builders.js";
import { docComment } from "./code.js";
import type { FileContext } from "./context.js";
import { interfaceDecl } from "./plain.js";
import { viewDoc, viewMembers, type ViewMember } from "./views.js";

/** A view interface member: `readonly x: T` for a getter, else the method's signature. */
function viewSignature(v: ViewMember): string {
  const doc = docComment(v.doc, v.deprecated ?? false, "  ", v.source);
  if (v.head.startsWith("get ")) return `${doc}  readonly ${v.head.slice(4)}: ${v.returns};`;
  return `${doc}  ${v.head}${signature(v.params, v.returns)};`;
}

export function interpretedDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const { views, plain, builders, json } = c.parts;
  const out: string[] = [];
  if (plain || builders) out.push(interfaceDecl(c, m));
  if (views) {
    const members = viewMembers(c, m).map(viewSignature);
    out.push(ts(`${docComment(viewDoc(m), m.deprecated, "", m.comment)}export interface ${n.view} extends $MessageView {\n${members.join("\n")}\n}\n`));
  }
  if (builders) out.push(builderInterface(c, m));
  const does = [views && "views", plain && "plain objects", builders && "builders", json && "ProtoJSON"].filter(Boolean).join(", ");
  out.push(
    docComment(`${m.fullName}: ${does}, interpreted from the schema (optimize_for = CODE_SIZE).`, m.deprecated, "", m.comment) +
      `export ${decl("declare ")}const ${n.type}${ts(`: $MessageType<${c.typeParams(m)}${c.formsParam(m)}>`)}${impl(` = /* @__PURE__ */ $interpretedType(${c.schemaOf(m)})`)};\n`,
  );
  return out.join("\n");
}
