// A service as generated code declares it: a ServiceType (ts/service.ts) whose methods name their
// request and response message types; the RPC adapters make library definitions of it.
import { charsOfBytes, safeProperty } from "../../ts/schema.js";
import { idempotencies, methodKinds } from "../../ts/service.js";
import type { MethodModel, ServiceModel } from "../model.js";
import { literal } from "../names.js";
import { decl, impl, ts } from "../syntax.js";
import { docComment, propertyKey } from "./code.js";
import type { FileContext } from "./context.js";

/** A method's kind as generated code numbers it (ts/service.ts's methodKinds). */
const kindOf = (m: MethodModel): number => (m.serverStreaming ? 1 : 0) + (m.clientStreaming ? 2 : 0);

/**
 * The methods' properties: each name with a lower-case first letter, "$" added to names that would
 * break objects as fields' are (a method `then` would make clients thenables), unique within the service.
 */
export function methodProperties(s: ServiceModel): string[] {
  const taken = new Set<string>();
  return s.methods.map((m) => {
    let p = safeProperty(m.name.charAt(0).toLowerCase() + m.name.slice(1));
    while (taken.has(p)) p += "$";
    taken.add(p);
    return p;
  });
}

const optionsText = (bytes: Uint8Array | undefined) => (bytes === undefined || bytes.length === 0 ? undefined : literal(charsOfBytes(bytes)));

export function serviceDecl(c: FileContext, s: ServiceModel, name: string): string {
  const props = methodProperties(s);
  const type = s.methods.map((m, i) => {
    const kind = methodKinds[kindOf(m)]!;
    const t = `$Method<typeof ${c.ref(m.input, "type")}, typeof ${c.ref(m.output, "type")}, ${literal(kind)}>`;
    return `${docComment(`${m.name}: ${m.input.fullName} → ${m.output.fullName}${kind === "unary" ? "" : ` (${kind.replace("_", " ")})`}.`, m.deprecated, "  ", m.comment)}  ${propertyKey(props[i]!)}: ${t};`;
  });
  const methods = s.methods.map((m, i) => {
    const source: string[] = [literal(m.name), c.ref(m.input, "type"), c.ref(m.output, "type"), String(kindOf(m))];
    const options = optionsText(m.customOptions);
    if (m.idempotency !== "unknown" || options !== undefined) source.push(String(idempotencies.indexOf(m.idempotency)));
    if (options !== undefined) source.push(options);
    return `  ${propertyKey(props[i]!)}: [${source.join(", ")}],`;
  });
  const options = optionsText(s.customOptions);
  return docComment(`${s.fullName}: a service (hppproto/grpc-js and hppproto/nice-grpc serve and call it).`, s.deprecated, "", s.comment) +
    `export ${decl("declare ")}const ${name}${ts(`: $ServiceType<{\n${type.join("\n")}\n}>`)}` +
    `${impl(` = /* @__PURE__ */ $service(${literal(s.fullName)}, {\n${methods.join("\n")}\n}${options === undefined ? "" : `, ${options}`})`)};\n`;
}
