// CODE_SIZE modules (protobuf's optimize_for = CODE_SIZE, or --optimize_for code_size): per
// message only its types and a message type whose facades the runtime interprets from the schema
// (ts/interpreted), so that the module holds no code per field.
import type { MessageModel } from "../model.js";
import { decl, impl, signature, ts } from "../syntax.js";
import { builderDoc, builderMembers } from "./builders.js";
import { docComment } from "./code.js";
import type { FileContext } from "./context.js";
import { interfaceDecl } from "./plain.js";
import { viewDoc, viewMembers } from "./views.js";

interface Signature {
  doc?: string;
  head: string;
  params: [string, string][];
  returns?: string;
  deprecated?: boolean;
}

/** An interface member: `readonly x: T` for a view's getter, else the accessor or method signature. */
function signatureOf(s: Signature, getterAsProperty: boolean): string {
  const doc = docComment(s.doc, s.deprecated ?? false, "  ");
  if (getterAsProperty && s.head.startsWith("get ")) return `${doc}  readonly ${s.head.slice(4)}: ${s.returns};`;
  return `${doc}  ${s.head}${signature(s.params, s.returns)};`;
}

export function interpretedDecl(c: FileContext, m: MessageModel): string {
  const n = c.names.get(m)!;
  const { views, plain, builders, json } = c.parts;
  const out: string[] = [];
  if (plain || builders) out.push(interfaceDecl(c, m));
  if (views) {
    const members = viewMembers(c, m).map((v) => signatureOf(v, true));
    out.push(ts(`${docComment(viewDoc(m), m.deprecated)}export interface ${n.view} extends $MessageView {\n${members.join("\n")}\n}\n`));
  }
  if (builders) {
    const members = builderMembers(c, m).map((b) => signatureOf(b, false));
    out.push(ts(`${docComment(builderDoc(c, m), m.deprecated)}export interface ${n.builder} extends ${n.view} {\n${members.join("\n")}\n}\n`));
  }
  const typeClass = json ? "$JsonMessageType" : "$MessageType";
  const make = json ? "$interpretedJsonType" : "$interpretedType";
  const does = [views && "views", plain && "plain objects", builders && "builders", json && "ProtoJSON"].filter(Boolean).join(", ");
  out.push(
    docComment(`${m.fullName}: ${does}, interpreted from the schema (optimize_for = CODE_SIZE).`, m.deprecated) +
      `export ${decl("declare ")}const ${n.type}${ts(`: ${typeClass}<${c.typeParams(m)}>`)}${impl(` = /* @__PURE__ */ ${make}($schema, ${m.index})`)};\n`,
  );
  return out.join("\n");
}
