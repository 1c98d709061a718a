// Runtime schemas from input that changes or is hostile: sources given again under one name,
// literals read from the text they came from, sources protobufjs cannot place errors in, and
// descriptor sets protoc would reject (each a SchemaError naming the declaration).
import descriptorModule from "protobufjs/ext/descriptor.js";
import { beforeAll, describe, expect, it } from "vitest";
import { getOption, init, SchemaError, fieldsOf } from "hppproto";
import { schemaFromDescriptorSet, schemaFromSources } from "../dist/codegen/dynamic.js";
import { ProtoLoadError } from "../dist/codegen/located.js";
import { thrownError } from "./support/thrown.js";

const descriptor = descriptorModule as unknown as typeof import("protobufjs/ext/descriptor.js");

beforeAll(async () => {
  await init();
});

const empty = new Uint8Array(0);

describe("sources given again under the same name", () => {
  it("give the new text's syntax and defaults", () => {
    const first = schemaFromSources({ "a.proto": 'syntax = "proto2";\nmessage M { optional int64 x = 1 [default = 5]; optional string s = 2 [default = "five"]; }\n' });
    expect(first.types.get("M")!.view(empty).x).toBe(5n);
    const second = schemaFromSources({ "a.proto": 'syntax = "proto2";\nmessage M { optional int64 x = 1 [default = 7]; optional string s = 2 [default = "seven"]; }\n' });
    expect(second.types.get("M")!.view(empty).x).toBe(7n);
    expect(second.types.get("M")!.view(empty).s).toBe("seven");
    const third = schemaFromSources({ "a.proto": 'syntax = "proto3";\nmessage M { int64 x = 1; }\n' });
    expect(fieldsOf(third.types.get("M")!)[0]!.presence).toBe("implicit");
  });

  it("give the new text's 64-bit option values", () => {
    const options = (value: string) =>
      schemaFromSources({
        "a.proto": `syntax = "proto2";\nimport "google/protobuf/descriptor.proto";\nextend google.protobuf.MessageOptions { optional uint64 big = 50000; }\nmessage M { option (big) = ${value}; }\n`,
        "google/protobuf/descriptor.proto": 'syntax = "proto2";\npackage google.protobuf;\nmessage MessageOptions { extensions 1000 to max; }\n',
      }, ["a.proto"]);
    const read = (s: ReturnType<typeof options>) => getOption(s.types.get("M")!, s.extensions.get("big")!);
    expect(read(options("18446744073709551615"))).toBe(18446744073709551615n);
    expect(read(options("18446744073709551614"))).toBe(18446744073709551614n);
  });
});

describe("literals read from the text", () => {
  it("each field's default from its own declaration, wherever another has the same name and number", () => {
    const { types } = schemaFromSources({
      "a.proto": `syntax = "proto2";\npackage p;\nmessage A { optional int64 x = 1 [default = 9007199254740993]; }\n` +
        `message B { optional int64 x = 1 [default = 9007199254740995]; optional bytes b = 2 [default = "\\001" '\\002']; message C { optional int64 x = 1 [default = -9007199254740997]; } }\n` +
        `extend B { optional int64 x = 100 [default = 0x20000000000003]; }\nmessage D { extend B { optional sint64 y = 101 [default = 9007199254740999]; } }\n`,
    });
    expect(types.get("p.A")!.view(empty).x).toBe(9007199254740993n);
    expect(types.get("p.B")!.view(empty).x).toBe(9007199254740995n);
    expect(types.get("p.B")!.view(empty).b).toEqual(Uint8Array.of(1, 2));
    expect(types.get("p.B.C")!.view(empty).x).toBe(-9007199254740997n);
  });

  it("extensions statements in group bodies are read over, whatever their number", () => {
    const body = Array.from({ length: 50 }, (_, i) => `    extensions ${100 + i * 2} to ${101 + i * 2};\n`).join("");
    const { types } = schemaFromSources({ "a.proto": `syntax = "proto2";\nmessage M {\n  optional group G = 1 {\n${body}    optional int32 a = 2 [default = 3];\n  }\n}\n` });
    const M = types.get("M")!;
    expect(M.decode(M.encode({ g: { a: 4 } }))).toEqual({ g: { a: 4 } });
    expect(types.get("M.G")!.view(empty).a).toBe(3);
  });
});

describe("sources protobufjs cannot place errors in", () => {
  it("a huge illegal token is a short file:line:col error", () => {
    const e = thrownError(() => schemaFromSources({ "a.proto": `syntax = "proto3";\nmessage M {\n  int32 ${"#".repeat(40_000)} = 1;\n}\n` }));
    expect(e).toBeInstanceOf(ProtoLoadError);
    expect(e.message).toMatch(/^a\.proto:3:\d+: /);
    expect(e.message.length).toBeLessThan(200);
  });

  it("a huge unknown import or type name is a short error", () => {
    const long = "x".repeat(40_000);
    for (const text of [`syntax = "proto3";\nimport "${long}.proto";\n`, `syntax = "proto3";\nmessage M { ${long} f = 1; }\n`, `syntax = "proto3";\nmessage M { int32 ${long} = 1; int32 ${long} = 2; }\n`]) {
      const e = thrownError(() => schemaFromSources({ "a.proto": text }));
      expect(e).toBeInstanceOf(ProtoLoadError);
      expect(e.message).toMatch(/^a\.proto(:\d+:\d+)?: /);
      expect(e.message.length).toBeLessThan(300);
    }
  });

  const nested = (depth: number) => {
    let s = 'syntax = "proto2";\n';
    for (let i = 0; i < depth; i++) s += `${"  ".repeat(i)}message M${i} {\n`;
    for (let i = depth - 1; i >= 0; i--) s += `${"  ".repeat(i)}}\n`;
    return s;
  };

  it("messages nested as deep as protoc reads load; deeper ones are an error at the declaration", () => {
    expect(schemaFromSources({ "a.proto": nested(31) }).types.size).toBe(31);
    for (const depth of [32, 150]) {
      const e = thrownError(() => schemaFromSources({ "a.proto": nested(depth) }));
      expect(e).toBeInstanceOf(ProtoLoadError);
      expect(e.message).toBe("a.proto:33:63: message declarations nested more than 31 deep (protoc's limit)");
    }
  });
});

/** A FileDescriptorSet of files given as descriptor.proto's objects (protobufjs's fromObject form). */
const setOf = (...files: object[]) => descriptor.FileDescriptorSet.encode(descriptor.FileDescriptorSet.fromObject({ file: files })).finish();
const file = (messages: object[], more: object = {}) => ({ name: "a.proto", package: "p", syntax: "proto2", messageType: messages, ...more });
const field = (name: string, number: number, type: number, more: object = {}) => ({ name, number, label: 1, type, ...more });
const entry = (key: object[]) => ({ name: "MEntry", options: { mapEntry: true }, field: key });

describe("descriptor sets protoc would reject", () => {
  it.each([
    ["a map entry without fields", file([{ name: "M", field: [field("m", 1, 11, { label: 3, typeName: ".p.M.MEntry" })], nestedType: [entry([])] }]), "p.M.m: map_entry should not be set explicitly. Use map<KeyType, ValueType> instead."],
    ["a map entry with a float key", file([{ name: "M", field: [field("m", 1, 11, { label: 3, typeName: ".p.M.MEntry" })], nestedType: [entry([field("key", 1, 2), field("value", 2, 5)])] }]), "p.M.m: key in map fields cannot be float/double, bytes or message types"],
    ["an out-of-range oneof_index", file([{ name: "M", field: [field("x", 1, 5, { oneofIndex: 3 })], oneofDecl: [{ name: "o" }] }]), "p.M.x: oneof_index 3 is out of range"],
    ["an int64 default abc", file([{ name: "M", field: [field("x", 1, 3, { defaultValue: "abc" })] }]), 'p.M.x: couldn\'t parse default value "abc"'],
    ["a NaN int32 default", file([{ name: "M", field: [field("x", 1, 5, { defaultValue: "nan" })] }]), 'p.M.x: couldn\'t parse default value "nan"'],
    ["an unresolved type", file([{ name: "M", field: [field("x", 1, 11, { typeName: ".p.Nope" })] }]), 'p.M.x: ".p.Nope" is not defined'],
    ["field number 0", file([{ name: "M", field: [field("x", 0, 5)] }]), "p.M.x: field numbers must be positive integers"],
    ["a duplicated field number", file([{ name: "M", field: [field("x", 1, 5), field("y", 1, 5)] }]), 'p.M.y: field number 1 has already been used by "x"'],
    ["two fields sharing a json_name", file([{ name: "M", field: [field("x", 1, 5, { jsonName: "a" }), field("y", 2, 5, { jsonName: "a" })] }]), 'p.M.y: its JSON name "a" is also field "x"\'s'],
    ["two messages of one name", file([{ name: "M" }, { name: "M" }]), '"p.M" is already defined'],
    ["an extension outside the extendee's ranges", file([{ name: "M" }], { extension: [field("e", 5, 5, { extendee: ".p.M" })] }), 'p.e: "p.M" does not declare 5 as an extension number'],
    ["a method of an unknown type", file([{ name: "M" }], { service: [{ name: "S", method: [{ name: "Get", inputType: ".p.M", outputType: ".p.X" }] }] }), 'p.S.Get: ".p.X" is not defined'],
    ["an enum without values", file([], { enumType: [{ name: "E" }] }), "p.E: enums must contain at least one value"],
    ["a default on a proto3 field", file([{ name: "M", field: [field("x", 1, 5, { defaultValue: "1" })] }], { syntax: "proto3" }), "p.M.x: explicit default values are not allowed in proto3"],
  ])("%s is a SchemaError at load, naming the declaration", (_, f, message) => {
    const e = thrownError(() => schemaFromDescriptorSet(setOf(f)));
    expect(e).toBeInstanceOf(SchemaError);
    expect(e.message).toBe(`a.proto: ${message}`);
  });

  it("bytes that are not a FileDescriptorSet are a SchemaError", () => {
    expect(() => schemaFromDescriptorSet(Uint8Array.of(0x0a, 0x05, 0x0a))).toThrow(SchemaError);
  });

  it("what protoc reads leniently loads: no label, no type, relative type names, defaults in hex or with a sign; -0 keeps its sign", () => {
    const { types } = schemaFromDescriptorSet(setOf(file([
      { name: "N", field: [{ name: "v", number: 1, type: 5 }] },
      { name: "M", field: [{ name: "d", number: 1 }, field("n", 2, 11, { typeName: "N" }), { name: "e", number: 3, label: 1, typeName: "E" }, field("h", 4, 5, { defaultValue: "0x10" }), field("s", 5, 3, { defaultValue: " +9007199254740993" }), field("z", 6, 1, { defaultValue: "-0" })] },
    ], { enumType: [{ name: "E", value: [{ name: "A", number: 0 }, { name: "B", number: 1 }] }] })));
    const M = types.get("p.M")!;
    expect(M.decode(M.encode({ d: 1.5, n: { v: 2 }, e: 1 }))).toEqual({ d: 1.5, n: { v: 2 }, e: 1 });
    expect(M.view(empty).h).toBe(16);
    expect(M.view(empty).s).toBe(9007199254740993n);
    expect(Object.is(M.view(empty).z, -0)).toBe(true); // as protoc writes a double default of -0.0
  });
});
