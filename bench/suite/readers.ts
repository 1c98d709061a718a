// "Read every field": a function per library, generated from the message's field list, that loads
// each field (and each element of each repeated field) into a sink array, so that lazy views pay
// for every string and number they hand out, exactly as an application reading the message would.
// Each library gets its own compiled copy so no call site is shared between libraries' objects.
import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import type { Codec } from "./libraries.js";

export type Reader = (message: any, sink: unknown[]) => number;
export const sink: unknown[] = new Array(1024).fill(0);

export function makeReader(desc: DescMessage, codec: Codec): Reader {
  let n = 0;
  const name = (f: DescMessage["fields"][number]) => (codec.naming === "proto" ? f.name : f.localName);
  const body = (d: DescMessage, m: string, depth: number): string =>
    d.fields
      .map((f) => {
        const v = `v${n++}`;
        const get = `const ${v} = ${m}.${name(f)};`;
        if (f.fieldKind === "message") return `${get} if (${v} != null) { ${body(f.message, v, depth + 1)} }`;
        if (f.fieldKind === "list") {
          const i = `i${depth}`;
          const numeric = f.listKind === "enum" || (f.listKind === "scalar" && f.scalar !== ScalarType.STRING && f.scalar !== ScalarType.BYTES);
          const at = codec.listAt(v, i, numeric);
          if (f.listKind === "message") return `${get} for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const e${n} = ${at}; ${body(f.message, `e${n++}`, depth + 1)} }`;
          return `${get} for (let ${i} = 0; ${i} < ${v}.length; ${i}++) o[k++ & 1023] = ${at};`;
        }
        if (f.fieldKind === "map") throw new Error("maps are not in the benchmark messages");
        return `${get} o[k++ & 1023] = ${v};`;
      })
      .join("\n");
  return new Function("m", "o", `let k = 0;\n${body(desc, "m", 0)}\nreturn k;`) as Reader;
}
