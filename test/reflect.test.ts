// Reflection (ts/reflect.ts): every message type's fields, oneofs and enums, checked against
// @bufbuild/protobuf's descriptors of the same files (built by buf).
import type * as es from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import type { FieldReflection } from "hppproto";
import { loadSet } from "./support/protos.js";
import { registryOf } from "./support/buf.js";
import * as p2 from "./gen/unittest/google/protobuf/unittest_pb.js";

import { findField, fieldsOf, oneofsOf } from "hppproto";
// (hppproto's well-known types are protobufjs's copies of their .proto files, older than buf's:
// without SYNTAX_EDITIONS in the Syntax enum, and Api, Type and Enum without their edition field.)
// @bufbuild's ScalarType numbers are descriptor.proto's field types; its presence, FeatureSet's
const scalarNames: Record<number, string> = {
  1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32", 8: "bool", 9: "string",
  12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64",
};
const presenceNames: Record<number, string> = { 1: "explicit", 2: "implicit", 3: "required" };

/** What @bufbuild's descriptor says of a field, in reflection's terms. */
function fromBuf(d: es.DescField): Record<string, unknown> {
  const value = d as { scalar?: number; message?: es.DescMessage; enum?: es.DescEnum };
  const out: Record<string, unknown> = {
    name: d.name, number: d.number, jsonName: d.jsonName, kind: d.fieldKind,
    scalar: value.scalar === undefined ? undefined : scalarNames[value.scalar], message: value.message?.typeName,
    enum: value.enum && { typeName: value.enum.typeName, values: value.enum.values.map((v) => ({ name: v.name, number: v.number })).filter((v) => v.name !== "SYNTAX_EDITIONS") },
    mapKey: d.fieldKind === "map" ? scalarNames[d.mapKey] : undefined, oneof: d.oneof?.name,
    packed: d.fieldKind === "list" && d.packed,
    delimited: (d.fieldKind === "message" || (d.fieldKind === "list" && d.listKind === "message")) && d.delimitedEncoding,
  };
  // presence is a singular field's (@bufbuild gives lists and maps implicit too)
  out.presence = presenceNames[d.presence];
  // (a oneof member's declared default is not kept: an unset member reads as absent)
  if ((d.fieldKind === "scalar" || d.fieldKind === "enum") && d.oneof === undefined) {
    // a default the type's zero is what an unset field reads anyway: the schema does not keep it
    // an unset closed enum reads as its first value
    const v = d.getDefaultValue() ?? (d.fieldKind === "enum" && !d.enum.open && !d.oneof ? d.enum.values[0]!.number : undefined);
    // @bufbuild's unescaping of bytes defaults drops \' and \" (protoc's descriptor has
    // "...\\\\\\'\\\"\\376" for unittest.proto's escaped_bytes: backslash, quote, double quote, 0xfe)
    if (d.name === "escaped_bytes" && v instanceof Uint8Array) return { ...out, defaultValue: new Uint8Array([0, 1, 7, 8, 12, 10, 13, 9, 11, 92, 39, 34, 254]) };
    const zero = v === false || v === "" || v === 0n || (typeof v === "number" && Object.is(v, 0)) || (v instanceof Uint8Array && v.length === 0);
    out.defaultValue = zero ? undefined : typeof v === "bigint" ? String(v) : v;
  }
  return out;
}

function fromHppproto(f: FieldReflection): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: f.name, number: f.number, jsonName: f.jsonName, kind: f.kind, scalar: f.scalar, message: f.message,
    enum: f.enum && { typeName: f.enum.typeName, values: f.enum.values.map((v) => ({ ...v })) },
    mapKey: f.mapKey, oneof: f.oneof, packed: f.packed, delimited: f.delimited, presence: f.presence,
  };
  if ((f.kind === "scalar" || f.kind === "enum") && f.oneof === undefined) out.defaultValue = typeof f.defaultValue === "bigint" ? String(f.defaultValue) : f.defaultValue;
  return out;
}

describe.each(["unittest", "conformance"] as const)("every message of the %s schemas", (set) => {
  it("lists the fields and oneofs @bufbuild's descriptors list: names, kinds, element types, enums, presence, packing, defaults; extensions besides", () => {
    const registry = registryOf(set);
    const loaded = loadSet(set);
    let fields = 0;
    for (const [typeName, T] of loaded.types) {
      const desc = registry.getMessage(typeName);
      if (desc === undefined) throw new Error(`buf's descriptors have no ${typeName}`);
      for (const d of desc.fields) {
        const f = findField(T, d.number);
        if (f === undefined && typeName.startsWith("google.protobuf.")) continue; // a field newer than protobufjs's copy
        expect(f, `${typeName}.${d.name}`).toBeDefined();
        expect(fromHppproto(f!), `${typeName}.${d.name}`).toEqual(fromBuf(d));
        for (const key of [d.name, d.jsonName, f!.property]) expect(findField(T, key), `${typeName}: ${key}`).toBe(f);
        fields++;
      }
      // the extensions of the message that this generation run holds are fields of it here
      for (const f of fieldsOf(T).filter((x) => desc.field[x.property] === undefined && !desc.fields.some((d) => d.number === x.number))) {
        expect(`[${registry.getExtensionFor(desc, f.number)?.typeName}]`, `${typeName} [${f.number}]`).toBe(f.name);
      }
      expect(fieldsOf(T).map((f) => f.number), typeName).toEqual([...fieldsOf(T).map((f) => f.number)].sort((a, b) => a - b));
      // @bufbuild lists proto3 optional's synthetic oneofs too; hppproto has them as explicit-presence fields
      const realOneofs = desc.oneofs.filter((o) => !o.fields.every((x) => x.proto.proto3Optional));
      expect(oneofsOf(T).map((o) => [o.name, o.fields.map((f) => f.number)]), typeName).toEqual(realOneofs.map((o) => [o.name, o.fields.map((f) => f.number)]));
    }
    expect(fields).toBeGreaterThan(800);
  });
});

describe("reflection", () => {
  it("finds fields by number, .proto name, json name and property, enum values by name and number", () => {
    const T = p2.TestAllTypes;
    const f = findField(T, "optional_nested_enum")!;
    expect([findField(T, 21), findField(T, "optionalNestedEnum")]).toEqual([f, f]);
    expect(f).toMatchObject({ kind: "enum", presence: "explicit", property: "optionalNestedEnum" });
    expect(f.enum!.value("BAR")).toEqual({ name: "BAR", number: 2 });
    expect(f.enum!.value(3)).toEqual({ name: "BAZ", number: 3 });
    expect(f.enum!.closed).toBe(true);
    expect([findField(T, "nope"), findField(T, 999999)]).toEqual([undefined, undefined]);
    expect(findField(T, "default_int64")!.defaultValue).toBe(42n);
    expect(findField(T, "default_bytes")!.defaultValue).toEqual(new TextEncoder().encode("world"));
    expect(findField(T, "repeated_int32")).toMatchObject({ kind: "list", scalar: "int32", packed: false });
    expect(findField(T, "oneof_string")).toMatchObject({ oneof: "oneof_field", presence: "explicit" });
    expect(fieldsOf(T)).toBe(fieldsOf(T)); // made once
  });
});
