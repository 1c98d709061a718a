// What protoc rejects and protobufjs lets through, checked on the parsed schema so that such a
// file fails at generation with its place (`file:line:col`) instead of later in the codec.
import protobuf from "protobufjs";
import { at, escape, fieldDeclaration, searchFor } from "./located.js";
import { fieldNumberProblem } from "./validate.js";
import { excerpt } from "../ts/excerpt.js";

/** Throws the first declaration protoc would reject. */
export function checkDeclarations(root: protobuf.Root): void {
  for (const o of everything(root)) {
    const file = o.filename;
    if (o instanceof protobuf.Type) {
      for (const f of o.fieldsArray) checkField(f);
    } else if (o instanceof protobuf.Enum && file) {
      const first = Object.entries(o.values)[0];
      if ((o as unknown as { _edition?: string })._edition === "proto3" && first && first[1] !== 0) {
        throw at(file, searchFor(`(?<![\\w.])${escape(first[0])}\\s*=`), `the first value of enum ${excerpt(o.name)} must be zero in proto3`);
      }
    } else if (o instanceof protobuf.Field) {
      checkField(o); // an extension (the fields of a message are checked with it)
    }
  }
}

/** Every object declared under ns, at any depth, parents before their nested objects. */
function everything(ns: protobuf.NamespaceBase): protobuf.ReflectionObject[] {
  return ns.nestedArray.flatMap((o) => (o instanceof protobuf.Namespace ? [o, ...everything(o)] : [o]));
}

function checkField(f: protobuf.Field): void {
  const file = f.filename ?? f.parent?.filename;
  if (!file) return;
  const problem = fieldNumberProblem(f.id);
  if (problem) throw at(file, fieldDeclaration(escape(f.name), String(f.id)), `${problem} (${excerpt(f.name)} = ${f.id})`);
}
