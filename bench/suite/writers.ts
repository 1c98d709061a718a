// hppproto's two hand-driven encode paths, generated from the message's field list as an
// application would write them by hand: a reused builder set field by field, and the streaming
// writer writing each field by number.
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { Writer } from "hppproto";

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** (builder, literal) => void: sets every field the literal holds. */
export function makeSetter(desc: DescMessage): (b: any, o: any) => void {
  let n = 0;
  const body = (d: DescMessage, b: string, o: string): string =>
    d.fields
      .map((f) => {
        const v = `v${n++}`;
        const get = `const ${v} = ${o}.${f.localName}; if (${v} !== undefined)`;
        if (f.fieldKind === "message") return `${get} { const s${n} = ${b}.mutable${cap(f.localName)}(); ${body(f.message, `s${n++}`, v)} }`;
        if (f.fieldKind === "list" && f.listKind === "message") {
          return `${get} for (const e${n} of ${v}) { const s${n} = ${b}.add${cap(f.localName)}(); ${body(f.message, `s${n}`, `e${n++}`)} }`;
        }
        return `${get} ${b}.${f.localName} = ${v};`;
      })
      .join("\n");
  return new Function("b", "o", body(desc, "b", "o")) as (b: any, o: any) => void;
}

const method: Record<ScalarType, string> = {
  [ScalarType.DOUBLE]: "double", [ScalarType.FLOAT]: "float", [ScalarType.INT64]: "int64", [ScalarType.UINT64]: "uint64",
  [ScalarType.INT32]: "int32", [ScalarType.FIXED64]: "fixed64", [ScalarType.FIXED32]: "fixed32", [ScalarType.BOOL]: "bool",
  [ScalarType.STRING]: "string", [ScalarType.BYTES]: "bytes", [ScalarType.UINT32]: "uint32", [ScalarType.SFIXED32]: "sfixed32",
  [ScalarType.SFIXED64]: "sfixed64", [ScalarType.SINT32]: "sint32", [ScalarType.SINT64]: "sint64",
};

/** (writer, literal) => void: writes every field the literal holds, by ascending number. */
export function makeWriterEncoder(desc: DescMessage): (w: Writer, o: any) => void {
  let n = 0;
  const implicit = (f: DescField) => (f as { presence?: number }).presence === 2;
  const scalar = (f: DescField) => (f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum") ? "enum" : method[(f as { scalar: ScalarType }).scalar]);
  const body = (d: DescMessage, o: string): string =>
    [...d.fields]
      .sort((a, b) => a.number - b.number)
      .map((f) => {
        const v = `v${n++}`;
        const get = `const ${v} = ${o}.${f.localName};`;
        if (f.fieldKind === "message") return `${get} if (${v} !== undefined) { w.fork(${f.number}); ${body(f.message, v)} w.join(); }`;
        if (f.fieldKind === "list") {
          if (f.listKind === "message") return `${get} if (${v} !== undefined) for (const e${n} of ${v}) { w.fork(${f.number}); ${body(f.message, `e${n++}`)} w.join(); }`;
          const m = scalar(f);
          if (f.packed) return `${get} if (${v} !== undefined && ${v}.length > 0) w.packed${cap(m === "enum" ? "int32" : m)}(${f.number}, ${v});`;
          return `${get} if (${v} !== undefined) for (const e of ${v}) w.${m}(${f.number}, e);`;
        }
        const skip = implicit(f) ? ` && ${v} !== 0 && ${v} !== "" && ${v} !== false && ${v} !== 0n` : "";
        return `${get} if (${v} !== undefined${skip}) w.${scalar(f)}(${f.number}, ${v});`;
      })
      .join("\n");
  return new Function("w", "o", body(desc, "o")) as (w: Writer, o: any) => void;
}
