// Descriptors no compiler would write, and text that tries to leave the generated code's comments
// and strings: the protoc plugin refuses a CodeGeneratorRequest protoc could not have sent (its
// error names the element, nothing is written), and what protoc and hppproto-gen accept (comments,
// defaults, json_name, option values, file names) imports without running any of it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema, CodeGeneratorResponseSchema, FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { generateResponse } from "../dist/codegen/plugin.js";
import { repoRoot } from "./support/paths.js";

type File = MessageInitShape<typeof FileDescriptorProtoSchema>;
const INT32 = 5, STRING = 9, MESSAGE = 11, BYTES = 12, ENUM = 14, OPTIONAL = 1;
const INJECTION = "x(){return 0}static{globalThis.INJECTED=process.pid}get y";

/** The plugin's response to a request of these files (all to generate), as bytes protoc would send. */
function plugin(files: File[], parameter = "") {
  const request = create(CodeGeneratorRequestSchema, { fileToGenerate: files.map((f) => f.name!), parameter, protoFile: files.map((f) => create(FileDescriptorProtoSchema, f)) });
  return fromBinary(CodeGeneratorResponseSchema, generateResponse(toBinary(CodeGeneratorRequestSchema, request)));
}

/** A well-formed file with one message, changed by `edit`. */
function file(edit: (f: File & { messageType: NonNullable<File["messageType"]> }) => void = () => {}): File {
  const f = {
    name: "evil.proto", package: "evil", syntax: "proto2",
    messageType: [{ name: "M", field: [{ name: "x", number: 1, label: OPTIONAL, type: INT32 }] }],
  };
  edit(f);
  return f;
}
const field = (f: File) => f.messageType![0]!.field![0]!;

describe("protoc-gen-hppproto refuses what protoc could not have sent: an error naming the element, no files", () => {
  it.each<[string, File[], RegExp]>([
    ["a field name that is code", [file((f) => (field(f).name = INJECTION))], /^evil\.proto: evil\.M: field name "x\(\)\{return 0\}static\{globalThis\.INJECTED=process\.pid\}get y" is not an identifier \(\[A-Za-z_\]\[A-Za-z0-9_\]\*\)$/],
    ["a message name", [file((f) => (f.messageType[0]!.name = "M N"))], /^evil\.proto: evil: message name "M N" is not an identifier/],
    ["a nested message name", [file((f) => (f.messageType[0]!.nestedType = [{ name: "9" }]))], /^evil\.proto: evil\.M: message name "9" is not/],
    ["a oneof name", [file((f) => (f.messageType[0]!.oneofDecl = [{ name: "o-o" }]))], /^evil\.proto: evil\.M: oneof name "o-o" is not/],
    ["an enum name", [file((f) => (f.enumType = [{ name: "E}", value: [{ name: "A", number: 0 }] }]))], /^evil\.proto: evil: enum name "E}" is not/],
    ["an enum value name", [file((f) => (f.enumType = [{ name: "E", value: [{ name: "A=1;B", number: 0 }] }]))], /^evil\.proto: evil\.E: enum value name "A=1;B" is not/],
    ["a service name", [file((f) => (f.service = [{ name: "S S" }]))], /^evil\.proto: evil: service name "S S" is not/],
    ["a method name", [file((f) => (f.service = [{ name: "S", method: [{ name: "then()", inputType: ".evil.M", outputType: ".evil.M" }] }]))], /^evil\.proto: evil\.S: method name "then\(\)" is not/],
    ["an empty name", [file((f) => (field(f).name = ""))], /^evil\.proto: evil\.M: field name "" is not/],
    ["a package", [file((f) => (f.package = "evil..x"))], /^evil\.proto: package "evil\.\.x": not identifiers joined by dots$/],
    ["a file name with ..", [file((f) => (f.name = "../outside.proto"))], /^file "\.\.\/outside\.proto": the name is not a relative path/],
    ["an absolute file name", [file((f) => (f.name = "/etc/x.proto"))], /^file "\/etc\/x\.proto": the name/],
    ["a file name with a backslash", [file((f) => (f.name = "a\\b.proto"))], /^file "a\\\\b\.proto": the name/],
    ["a file name an import specifier reads as a URL's fragment", [file((f) => (f.name = "a#b.proto"))], /^file "a#b\.proto": the name/],
    ["a file name with a control character", [file((f) => (f.name = "a\nb.proto"))], /^file "a\\nb\.proto": the name/],
    ["a type_name resolving to nothing", [file((f) => Object.assign(field(f), { type: MESSAGE, typeName: ".evil.Nope" }))], /^evil\.proto: evil\.M\.x: "\.evil\.Nope" is not defined$/],
    ["a message type_name naming an enum", [file((f) => { f.enumType = [{ name: "E", value: [{ name: "A", number: 0 }] }]; Object.assign(field(f), { type: MESSAGE, typeName: ".evil.E" }); })], /^evil\.proto: evil\.M\.x: "\.evil\.E" is not a message type$/],
    ["an enum type_name naming a message", [file((f) => Object.assign(field(f), { type: ENUM, typeName: ".evil.M" }))], /^evil\.proto: evil\.M\.x: "\.evil\.M" is not an enum type$/],
    ["an extendee resolving to nothing", [file((f) => (f.extension = [{ name: "ext", number: 100, label: OPTIONAL, type: INT32, extendee: ".evil.Gone" }]))], /^evil\.proto: evil\.ext: "\.evil\.Gone" is not defined$/],
    ["a method's input_type resolving to nothing", [file((f) => (f.service = [{ name: "S", method: [{ name: "Call", inputType: ".x.Y", outputType: ".evil.M" }] }]))], /^evil\.proto: evil\.S\.Call: "\.x\.Y" is not defined$/],
    ["a message field without a type name", [file((f) => (field(f).type = MESSAGE))], /^evil\.proto: evil\.M\.x: a field of type 11 has no type name$/],
    ["a oneof_index past the oneofs", [file((f) => (field(f).oneofIndex = 3))], /^evil\.proto: evil\.M\.x: oneof_index 3 is out of range$/],
    ["a map entry without its value field", [file((f) => (f.messageType[0]!.nestedType = [{ name: "XEntry", options: { mapEntry: true }, field: [{ name: "key", number: 1, label: OPTIONAL, type: INT32 }] }]))], /^evil\.proto: evil\.M\.XEntry: map_entry should not be set explicitly\. Use map<KeyType, ValueType> instead\.$/],
    ["an int32 default that is code", [file((f) => (field(f).defaultValue = "1;globalThis.INJECTED=1"))], /^evil\.proto: evil\.M\.x: couldn't parse default value "1;globalThis\.INJECTED=1"$/],
    ["a bool default", [file((f) => Object.assign(field(f), { type: 8, defaultValue: "yes" }))], /evil\.M\.x: boolean default must be true or false$/],
    ["a bytes default with an escape beyond Unicode", [file((f) => Object.assign(field(f), { type: BYTES, defaultValue: "ab\\U00110000" }))], /evil\.M\.x: couldn't parse default value: \\U00110000 is beyond U\+10FFFF$/],
    ["an enum default naming no value", [file((f) => { f.enumType = [{ name: "E", value: [{ name: "A", number: 0 }] }]; Object.assign(field(f), { type: ENUM, typeName: ".evil.E", defaultValue: "B" }); })], /evil\.M\.x: enum type "evil\.E" has no value named "B"$/],
    ["a float default", [file((f) => Object.assign(field(f), { type: 2, defaultValue: "1e" }))], /evil\.M\.x: couldn't parse default value "1e"$/],
  ])("%s", (_what, files, message) => {
    const response = plugin(files);
    expect(response.error).toMatch(message);
    expect(response.file).toEqual([]);
  });

  it("a file's references resolve across the request, in any order; hostile text in errors is cut short", () => {
    const user = file((f) => { f.name = "user.proto"; f.dependency = ["dep.proto"]; Object.assign(field(f), { type: MESSAGE, typeName: ".dep.D" }); });
    expect(plugin([user, { name: "dep.proto", package: "dep", messageType: [{ name: "D" }] }]).error).toBe("");
    const long = plugin([file((f) => (field(f).name = `a b${"x".repeat(1_000_000)}`))]).error!;
    expect(long.length).toBeLessThan(200);
  });

  it("through the executable: the error in the response, exit 0, as protoc expects of a plugin", () => {
    const request = create(CodeGeneratorRequestSchema, { fileToGenerate: ["evil.proto"], protoFile: [create(FileDescriptorProtoSchema, file((f) => (field(f).name = INJECTION)))] });
    const r = spawnSync(process.execPath, [`${repoRoot}bin/protoc-gen-hppproto.mjs`], { input: toBinary(CodeGeneratorRequestSchema, request) });
    expect(r.status).toBe(0);
    const response = fromBinary(CodeGeneratorResponseSchema, new Uint8Array(r.stdout));
    expect(response.error).toMatch(/^evil\.proto: evil\.M: field name "x\(\)\{return 0\}/);
    expect(response.file).toEqual([]);
  });
});

// Text that would leave a comment: "*/", line terminators, and the emitter's own span markers
// (U+0001-U+0006), "*" + an empty marker span + "/" having made "*/" once the span was dropped
const commentBreakers = [
  '*/ globalThis.INJECTED = "slash"; /*',
  '*\u0005\u0006/ globalThis.INJECTED = "markers"; /*',
  '\u2028 globalThis.INJECTED = "u2028"; \r globalThis.INJECTED = "cr";',
  "\u0003 \u0004 \u0001 \u0006",
];
const hostileString = '"; globalThis.INJECTED = "string"; "\\ */ \u2028 ${globalThis.INJECTED = 1} `\u0005';
const hostileJsonName = 'a"*/\u2028\\b\u0005';

/** Imports a generated module in a Node process of its own; what `check` (a function of the module, run there) returns. */
function importAndRun(module: string, check: string): { injected: unknown; result: unknown } {
  const script = [
    `const { init, findField, toJsonString } = await import(${JSON.stringify(`${repoRoot}dist/ts/index.js`)});`,
    "await init();",
    `const m = await import(${JSON.stringify(module)});`,
    `const result = (${check})(m);`,
    "console.log(JSON.stringify({ injected: globalThis.INJECTED ?? null, result }));",
  ].join("\n");
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as { injected: unknown; result: unknown };
}

/** What the Hostile message of both tests reads back: its defaults, json_name and option bytes, as they were declared. */
const readBack = `(m) => {
  const v = m.Hostile.view(new Uint8Array(0));
  return {
    text: v.text, raw: Array.from(v.raw), jsonName: findField(m.Hostile, 3).jsonName,
    json: Object.keys(JSON.parse(toJsonString(m.Hostile, { named: 1 }))),
  };
}`;
const expected = { text: hostileString, raw: [0, 0x22, 0x2a, 0x2f, 0x0a, 0x5c], jsonName: hostileJsonName, json: [hostileJsonName] };

describe("text from descriptors cannot leave the generated code's comments and strings", () => {
  it("protoc-gen-hppproto: comments (SourceCodeInfo), defaults, json_name, custom options and file names; the modules import without running any of it", () => {
    const odd = 'sub dir/it\'s "q" */ x.proto';
    const comments = (paths: number[][]) => paths.flatMap((p, i) => [
      { path: p, leadingComments: commentBreakers.join("\n"), trailingComments: commentBreakers[i % commentBreakers.length] },
    ]);
    const files: File[] = [
      { name: odd, package: "dep", syntax: "proto2", messageType: [{ name: "D" }], sourceCodeInfo: { location: comments([[4, 0]]) } },
      {
        name: "hostile.proto", package: "hostile", syntax: "proto2", dependency: [odd],
        messageType: [{
          name: "Hostile",
          field: [
            { name: "text", number: 1, label: OPTIONAL, type: STRING, jsonName: "text", defaultValue: hostileString },
            { name: "raw", number: 2, label: OPTIONAL, type: BYTES, jsonName: "raw", defaultValue: '\\000"*/\\n\\\\' },
            { name: "named", number: 3, label: OPTIONAL, type: INT32, jsonName: hostileJsonName },
            { name: "dep", number: 4, label: OPTIONAL, type: MESSAGE, typeName: ".dep.D", jsonName: "dep" },
          ],
          // a custom option (an extension field of MessageOptions) holding comment breakers
          options: { $unknown: [{ no: 50001, wireType: 2, data: new Uint8Array([commentBreakers[1]!.length, ...new TextEncoder().encode(commentBreakers[1])]) }] },
        }],
        enumType: [{ name: "E", value: [{ name: "E_ZERO", number: 0 }] }],
        service: [{ name: "S", method: [{ name: "Call", inputType: ".hostile.Hostile", outputType: ".hostile.Hostile" }] }],
        sourceCodeInfo: { location: comments([[4, 0], [4, 0, 2, 0], [4, 0, 2, 2], [5, 0], [5, 0, 2, 0], [6, 0], [6, 0, 2, 0]]) },
      },
    ];
    const out = mkdtempSync(`${tmpdir()}/hppproto-hostile-`);
    const response = plugin(files, `target=js,runtime_import=${repoRoot}dist/ts/generated.js`);
    expect(response.error).toBe("");
    expect(response.file.map((f) => f.name).sort()).toEqual(["hostile_pb.d.ts", "hostile_pb.js", 'sub dir/it\'s "q" */ x_pb.d.ts', 'sub dir/it\'s "q" */ x_pb.js']);
    for (const f of response.file) {
      mkdirSync(path.dirname(path.join(out, f.name)), { recursive: true });
      writeFileSync(path.join(out, f.name), f.content);
    }
    const { injected, result } = importAndRun(path.join(out, "hostile_pb.js"), readBack);
    expect(injected).toBe(null);
    expect(result).toEqual(expected);
  });

  it("hppproto-gen: comments, defaults, json_name and custom options of a .proto file; the module imports without running any of it", () => {
    const dir = mkdtempSync(`${tmpdir()}/hppproto-hostile-`);
    const protoString = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    const lineComments = (indent: string) => commentBreakers.map((c) => `${indent}// ${c.replace(/[\r\n\u2028]/g, " ")}`).join("\n");
    writeFileSync(path.join(dir, "hostile.proto"), [
      'syntax = "proto2";',
      "package hostile;",
      'import "google/protobuf/descriptor.proto";',
      "extend google.protobuf.MessageOptions { optional string note = 50001; }",
      "/*",
      ...commentBreakers.map((c) => ` * ${c.replace("*/", "* /")}`),
      " */",
      "message Hostile {",
      `  option (note) = ${protoString(commentBreakers[1]!)};`,
      lineComments("  "),
      `  optional string text = 1 [default = ${protoString(hostileString)}];`,
      '  optional bytes raw = 2 [default = "\\000\\"*/\\n\\\\"];',
      `  optional int32 named = 3 [json_name = ${protoString(hostileJsonName)}]; // ${commentBreakers[1]}`,
      "}",
      lineComments(""),
      "enum E {",
      `  E_ZERO = 0; // ${commentBreakers[0]}`,
      "}",
      "",
    ].join("\n"));
    const out = path.join(dir, "out");
    const r = spawnSync(process.execPath, [`${repoRoot}bin/hppproto-gen.mjs`, "--out", out, "--target", "js", "--runtime_import", `${repoRoot}dist/ts/generated.js`, "-I", dir, path.join(dir, "hostile.proto")], { encoding: "utf8" });
    expect(r.stderr).toMatch(/^hppproto-gen: \d+ modules/);
    const { injected, result } = importAndRun(path.join(out, "hostile_pb.js"), readBack);
    expect(injected).toBe(null);
    expect(result).toEqual(expected);
  });
});
