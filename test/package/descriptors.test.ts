// The descriptors hppproto-gen makes of the .proto files protobufjs parsed (codegen/describe.ts)
// say what buf's compiler says of the same files: the model reads one form whichever parsed them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import protobuf from "protobufjs";
import descriptorModule from "protobufjs/ext/descriptor.js";
import { describe, expect, it } from "vitest";
import { describeFiles } from "../../dist/codegen/describe.js";
import {
  editionDefaults, fieldFeatures, withFeatures,
  type DescriptorProto, type EnumDescriptorProto, type Features, type FieldDescriptorProto, type FileDescriptorProto,
} from "../../dist/codegen/descriptor.js";
import { loadProtos } from "../../dist/codegen/load.js";
import { conformanceProtos, protos, repoRoot, schemaSets } from "../support/paths.js";

const descriptor = descriptorModule as unknown as typeof import("protobufjs/ext/descriptor.js");
const buf = `${repoRoot}node_modules/.bin/buf`;

/** buf build's FileDescriptorSet for the files, imports included. */
function viaBuf(protoPath: string, files: readonly string[]): FileDescriptorProto[] {
  const out = path.join(mkdtempSync(`${tmpdir()}/hppproto-descriptors-`), "set.binpb");
  execFileSync(buf, ["build", protoPath, "-o", out, ...files.flatMap((f) => ["--path", path.join(protoPath, f)])], { stdio: "pipe" });
  const set = descriptor.FileDescriptorSet.decode(readFileSync(out));
  return (descriptor.FileDescriptorSet.toObject(set) as { file: FileDescriptorProto[] }).file;
}

/** What a descriptor says about each declaration, with every field's and enum's features resolved. */
function shape(file: FileDescriptorProto) {
  const scope = withFeatures(editionDefaults(file), file.options?.features);
  const field = (f: FieldDescriptorProto, features: Features) => ({
    name: f.name, number: f.number, label: f.label, type: f.type, typeName: f.typeName, extendee: f.extendee,
    // numbers compare by value: protoc writes 9e+09 where JS writes 9000000000
    default: f.defaultValue === undefined || Number.isNaN(Number(f.defaultValue)) || f.type === 9 || f.type === 12 ? f.defaultValue : Number(f.defaultValue),
    oneof: f.oneofIndex, proto3Optional: f.proto3Optional ?? false, jsonName: f.jsonName ?? camel(f.name),
    jstype: f.options?.jstype ?? 0, deprecated: f.options?.deprecated ?? false, features: fieldFeatures(features, f),
  });
  const enumShape = (e: EnumDescriptorProto, features: Features) => ({
    name: e.name, values: e.value?.map((v) => [v.name, v.number, v.options?.deprecated ?? false]),
    deprecated: e.options?.deprecated ?? false, closed: withFeatures(features, e.options?.features).enumType,
  });
  const message = (m: DescriptorProto, outer: Features): unknown => {
    const features = withFeatures(outer, m.options?.features);
    return {
      name: m.name, mapEntry: m.options?.mapEntry ?? false, messageSet: m.options?.messageSetWireFormat ?? false, deprecated: m.options?.deprecated ?? false,
      oneofs: m.oneofDecl?.map((o) => o.name), reserved: m.reservedName,
      fields: m.field?.map((f) => field(f, f.oneofIndex === undefined ? features : withFeatures(features, m.oneofDecl![f.oneofIndex]!.options?.features))),
      // protoc lists map entries where the map field is declared, among the nested messages; protobufjs keeps no such order
      nested: m.nestedType?.map((n) => message(n, features)).sort((a, b) => ((a as { name: string }).name < (b as { name: string }).name ? -1 : 1)), enums: m.enumType?.map((e) => enumShape(e, features)),
      extensions: m.extension?.map((f) => field(f, features)),
    };
  };
  return {
    name: file.name, package: file.package, optimizeFor: file.options?.optimizeFor,
    messages: file.messageType?.map((m) => message(m, scope)), enums: file.enumType?.map((e) => enumShape(e, scope)),
    extensions: file.extension?.map((f) => field(f, scope)),
    services: file.service?.map((s) => ({
      name: s.name, deprecated: s.options?.deprecated ?? false,
      methods: s.method?.map((m) => ({
        name: m.name, input: m.inputType, output: m.outputType, clientStreaming: m.clientStreaming ?? false, serverStreaming: m.serverStreaming ?? false,
        idempotency: m.options?.idempotencyLevel ?? 0, deprecated: m.options?.deprecated ?? false,
      })),
    })),
  };
}

/** protoc's default json_name: the name in lowerCamelCase. */
const camel = (name: string) => name.replace(/_+([a-z0-9]?)/g, (_, c: string) => c.toUpperCase());

function expectSameDescriptors(protoPath: string, files: readonly string[]) {
  const ours = new Map(describeFiles(loadProtos(files.map((f) => path.join(protoPath, f)), [protoPath])).map((f) => [f.name, f]));
  const theirs = viaBuf(protoPath, files).filter((f) => files.includes(f.name));
  expect(theirs.length).toBe(files.length);
  for (const want of theirs) expect(shape(ours.get(want.name)!), want.name).toEqual(shape(want));
}

describe("descriptors of parsed .proto files", () => {
  it("the conformance schemas, editions included, as buf describes them", () => {
    expectSameDescriptors(conformanceProtos, schemaSets.conformance.files);
  });

  it("protobuf's unittest schemas (groups, maps, extensions, defaults, json_name, features) as buf describes them", () => {
    expectSameDescriptors(protos, schemaSets.unittest.files);
  });

  it("services (each kind of method, idempotency, deprecated) and declarations with custom options, as buf describes them", () => {
    expectSameDescriptors(schemaSets.rpc.protoPath, [...schemaSets.rpc.files, ...schemaSets.custom_options.files]);
  });

  it("leaves protobufjs as it was: its parser's fixes are removed after parsing", () => {
    const before = [protobuf.OneOf.prototype.add, protobuf.OneOf.prototype.onAdd, protobuf.Type.prototype.add, protobuf.util.fs];
    const filename = Object.getOwnPropertyDescriptor(protobuf.parse, "filename");
    loadProtos([path.join(protos, schemaSets.unittest.files[0]!)], [protos]);
    expect([protobuf.OneOf.prototype.add, protobuf.OneOf.prototype.onAdd, protobuf.Type.prototype.add, protobuf.util.fs]).toEqual(before);
    expect(Object.getOwnPropertyDescriptor(protobuf.parse, "filename")).toEqual(filename);
    // and a program's own protobufjs still refuses a group in a oneof, as protobufjs does
    expect(() => protobuf.parse('syntax = "proto2"; message M { oneof o { group G = 1 { optional int32 a = 2; } } }')).toThrow();
  });
});
