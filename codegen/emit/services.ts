// A service as generated code declares it: a ServiceType (ts/service.ts) whose methods name their
// request and response message types; the RPC adapters make library definitions of it.
import type { MethodModel, ServiceModel } from "../model.js";
import { literal } from "../names.js";
import { decl, impl, ts } from "../syntax.js";
import { docComment, propertyKey } from "./code.js";
import type { FileContext } from "./context.js";

const kinds = ["unary", "server_streaming", "client_streaming", "bidi_streaming"] as const;
const idempotencies = ["unknown", "no_side_effects", "idempotent"] as const;

const kindOf = (m: MethodModel): 0 | 1 | 2 | 3 => ((m.serverStreaming ? 1 : 0) + (m.clientStreaming ? 2 : 0)) as 0 | 1 | 2 | 3;

/** The methods' properties: each name with a lower-case first letter (unique within the service). */
export function methodProperties(s: ServiceModel): string[] {
  const taken = new Set<string>();
  return s.methods.map((m) => {
    let p = m.name.charAt(0).toLowerCase() + m.name.slice(1);
    while (taken.has(p)) p += "$";
    taken.add(p);
    return p;
  });
}

const optionsText = (bytes: Uint8Array | undefined) => (bytes === undefined || bytes.length === 0 ? undefined : literal(String.fromCharCode(...bytes)));

export function serviceDecl(c: FileContext, s: ServiceModel, name: string): string {
  const props = methodProperties(s);
  const type = s.methods.map((m, i) => {
    const t = `$Method<typeof ${c.ref(m.input, "type")}, typeof ${c.ref(m.output, "type")}, ${literal(kinds[kindOf(m)])}>`;
    return `${docComment(`${m.name}: ${m.input.fullName} → ${m.output.fullName}${m.clientStreaming || m.serverStreaming ? ` (${kinds[kindOf(m)].replace("_", " ")})` : ""}.`, m.deprecated, "  ", m.comment)}  ${propertyKey(props[i]!)}: ${t};`;
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
