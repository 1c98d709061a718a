// hppproto-gen: the generated TypeScript compiles under --strict, hostile names work, the CLI fails
// cleanly, and CommonJS consumers can use the output.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { Extension, fromText, getOption, init, toText, toJsonString, fromJsonString, fromJson, builder, findField } from "hppproto";
import { loadSchema } from "../dist/codegen/dynamic.js";
import { EDITION_2024 } from "./support/edition2024.js";
import { OPTIONS_ONLY, OPTIONS_USED } from "./support/optionsonly.js";
import { crossCheck, encodeWithProtobufjs, loadSet, randomObject, rng } from "./support/protos.js";
import { conformanceProtos, genDir, repoRoot } from "./support/paths.js";
import { Wire } from "./support/wire.js";
import { Coercion, Prototype, Word } from "./gen/names/names_rpc_pb.js";

beforeAll(async () => {
  await init();
});

const tsc = `${repoRoot}node_modules/typescript/bin/tsc`;
const cli = `${repoRoot}bin/hppproto-gen.mjs`;

function run(args: string[], cwd = repoRoot) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The CLI with bytes on stdin: stdout as bytes, stderr as text. */
function pipe(args: string[], input: Uint8Array | string) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: repoRoot, input });
  return { status: r.status, stdout: new Uint8Array(r.stdout), stderr: r.stderr.toString() };
}

describe("generated code", () => {
  // erasableSyntaxOnly: what Node's type stripping, Deno and Bun run as is (no enum, namespace or parameter property);
  // and every strictness flag users turn on, generated code being part of their program
  it.each([["5.9", tsc], ["7", `${repoRoot}node_modules/typescript-7/bin/tsc`]])("passes tsc --strict --erasableSyntaxOnly and every other strictness flag for every schema set, under TypeScript %s", (_, compiler) => {
    const config = {
      compilerOptions: {
        target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, erasableSyntaxOnly: true, verbatimModuleSyntax: true,
        noUncheckedIndexedAccess: true, noImplicitOverride: true, exactOptionalPropertyTypes: true, noUnusedLocals: true, noUnusedParameters: true,
        noImplicitReturns: true, noFallthroughCasesInSwitch: true, noPropertyAccessFromIndexSignature: true, allowUnreachableCode: false, allowUnusedLabels: false,
        lib: ["ES2022", "DOM"], types: [],
        paths: { hppproto: [`${repoRoot}dist/ts/index.d.ts`], "hppproto/generated": [`${repoRoot}dist/ts/generated.d.ts`] },
      },
      include: ["**/*.ts"],
    };
    writeFileSync(`${genDir}/tsconfig.json`, JSON.stringify(config));
    const r = spawnSync(process.execPath, [compiler, "-p", genDir], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.each([["5.9", tsc], ["7", `${repoRoot}node_modules/typescript-7/bin/tsc`]])("with the public API's generic functions: their types infer from generated types (test/types/api.ts), and the RPC adapters' handlers and clients from generated services (test/types/rpc.ts), under TypeScript %s", (_, compiler) => {
    const r = spawnSync(process.execPath, [compiler, "-p", `${repoRoot}test/types`], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("names that collide with JS, TS and the runtime: decode as protobufjs does, round-trip binary and JSON", () => {
    const loaded = loadSet("names");
    expect(loaded.types.size).toBeGreaterThanOrEqual(10);
    // names_props.proto's Foo (proto2, as protoc refuses this in proto3) has fields whose JSON
    // names collide on purpose (for the property names): only its binary form round-trips
    const jsonCollides = (typeName: string) =>
      new Set(loaded.models.get(typeName)!.fields.map((f) => f.jsonName)).size < loaded.models.get(typeName)!.fields.length;
    for (const [typeName, type] of loaded.types) {
      const r = rng(typeName.length);
      for (let i = 0; i < 20; i++) {
        const model = loaded.models.get(typeName)!;
        const bytes = encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r));
        crossCheck(loaded, typeName, bytes);
        const plain = type.decode(bytes);
        expect(type.decode(type.encode(plain))).toEqual(plain);
        expect(type.encode(type.view(bytes))).toEqual(type.encode(plain));
        if (!jsonCollides(typeName)) expect(fromJsonString(type, toJsonString(type, plain))).toEqual(plain);
      }
    }
    const obj = loaded.types.get("names.constructor.constructor")!.decode(
      encodeWithProtobufjs(loaded, "names.constructor.constructor", { constructor: "c", toString: 5, then: true }),
    ) as Record<string, unknown>;
    expect(obj.constructor$).toBe("c");
    expect(obj.toString$).toBe(5);
    expect(obj.then$).toBe(true);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(typeof obj.toString).toBe("function");

    // fields, messages and enum values named __proto__ are kept (protobufjs alone drops them)
    const proto = loaded.types.get("__proto__.then.prototype.__proto__")!;
    const bytes = new Uint8Array([0x08, 0x05, 0x1a, 0x03, 0xf0, 0x01, 0x01]); // __proto__ = 5, then { enum = __proto__ }
    expect(proto.decode(bytes)).toEqual({ Proto: 5, then$: { Enum: 1 } });
    expect(toJsonString(proto, proto.decode(bytes))).toBe('{"Proto":5,"then":{"Enum":"__proto__"}}');
    expect(fromJsonString(proto, '{"__proto__":6,"then":{"Enum":"__proto__"}}')).toEqual({ Proto: 6, then$: { Enum: 1 } });
    // a JSON value: JSON.parse makes "__proto__" an own key, which fromJson's copy keeps one
    expect(fromJson(proto, JSON.parse('{"__proto__":6,"then":{"Enum":"__proto__"}}'))).toEqual({ Proto: 6, then$: { Enum: 1 } });
    expect(({} as Record<string, unknown>).Enum).toBeUndefined();
  });

  it("methods and enum values named after Object.prototype members or then get a $ suffix, as fields do; enums round-trip under their .proto names", () => {
    expect(Object.entries(Prototype.methods).map(([key, m]) => [key, m.property, m.name, m.path])).toEqual(
      [["__proto__$", "__proto__"], ["then$", "then"], ["then$$", "Then"], ["constructor$", "constructor"], ["toString$", "toString"], ["hasOwnProperty$", "hasOwnProperty"], ["__defineGetter__$", "__defineGetter__"]]
        .map(([key, name]) => [key, key, name, `/names_rpc.Prototype/${name}`]),
    );
    expect(Object.getPrototypeOf(Prototype.methods)).toBe(Object.prototype);

    expect(Object.entries(Coercion)).toEqual([["COERCION_UNSPECIFIED", 0], ["toString$", 1], ["valueOf$", 2], ["hasOwnProperty$", 3], ["__proto__$", 4], ["then$", 5]]);
    expect(`${Coercion}`).toBe("[object Object]"); // toString and valueOf are still Object's
    expect(Coercion.hasOwnProperty("then$")).toBe(true);
    const word = { text: "w", kind: Coercion.toString$, kinds: [Coercion.valueOf$, Coercion.hasOwnProperty$], byName: { a: Coercion.then$, b: Coercion.__proto__$ } };
    expect(Word.decode(Word.encode(word))).toEqual(word);
    const json = '{"text":"w","kind":"toString","kinds":["valueOf","hasOwnProperty"],"byName":{"a":"then","b":"__proto__"}}';
    expect(toJsonString(Word, word)).toBe(json);
    expect(fromJsonString(Word, json)).toEqual(word);
  });
});

describe("hppproto-gen", () => {
  const scratch = () => mkdtempSync(`${tmpdir()}/hppproto-gen-`);

  it("--help documents the options", () => {
    const r = run(["--help"]);
    expect(r.status).toBe(0);
    for (const opt of ["--out", "--proto_path", "-I", "--runtime_import", "--target ts|js", "--import_extension js|ts|none", "--int64 bigint|string|number", "--facades LIST", "protoc-gen-hppproto", "--hppproto_opt"]) {
      expect(r.out).toContain(opt);
    }
  });

  it("the deprecated option becomes @deprecated, which TypeScript reports at every use, in .ts and in --target js's .d.ts", () => {
    for (const target of ["ts", "js"]) {
      const dir = scratch();
      expect(run(["--out", `${dir}/gen`, "--target", target, "-I", `${repoRoot}test/protos`, `${repoRoot}test/protos/deprecated.proto`]).status).toBe(0);
      const consumer = [
        'import { builder } from "hppproto";',
        `import { Current, Old, Mode, Gone, type CurrentView } from "./gen/deprecated_pb${target === "ts" ? ".ts" : ".js"}";`,
        "declare const v: CurrentView;",
        "const c = Current.decode(new Uint8Array(0));",
        "export const uses = [c.kept, c.legacy, c.olds, c.old, v.legacy, v.old, Old, Mode.MODE_LEGACY, Mode.MODE_UNSPECIFIED, Gone];",
        "const b = builder(Current); b.legacy = \"x\"; b.addOlds(); b.mutableOld();",
      ].join("\n");
      writeFileSync(`${dir}/main.ts`, consumer);
      const files = [`${dir}/main.ts`];
      const options: ts.CompilerOptions = {
        target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true, noEmit: true, allowImportingTsExtensions: true, types: [], paths: { hppproto: [`${repoRoot}dist/ts/index.d.ts`], "hppproto/generated": [`${repoRoot}dist/ts/generated.d.ts`] },
      };
      const host: ts.LanguageServiceHost = {
        getScriptFileNames: () => files, getScriptVersion: () => "1", getCompilationSettings: () => options,
        getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!) : undefined),
        getCurrentDirectory: () => dir, getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
        fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory, directoryExists: ts.sys.directoryExists,
      };
      const service = ts.createLanguageService(host);
      expect(service.getSemanticDiagnostics(files[0]!).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
      const flagged = service.getSuggestionDiagnostics(files[0]!).filter((d) => d.reportsDeprecated).map((d) => consumer.slice(d.start!, d.start! + d.length!));
      // everything deprecated, once per use; kept, MODE_UNSPECIFIED and Current are not
      expect(flagged.sort()).toEqual(["Gone", "Gone", "MODE_LEGACY", "Old", "Old", "addOlds", "legacy", "legacy", "legacy", "mutableOld", "old", "old", "olds"].sort());
    }
  });

  it(".proto comments become JSDoc that editors show, in .ts and in --target js's .d.ts", () => {
    for (const target of ["ts", "js"]) {
      const dir = scratch();
      expect(run(["--out", `${dir}/gen`, "--target", target, "-I", `${repoRoot}test/protos`, `${repoRoot}test/protos/comments.proto`]).status).toBe(0);
      const consumer = [
        'import { builder } from "hppproto";',
        `import { Person, Person_Kind, type PersonView } from "./gen/comments_pb${target === "ts" ? ".ts" : ".js"}";`,
        "declare const v: PersonView;",
        "const p = Person.decode(new Uint8Array(0));",
        "export const uses = [p.name, v.id, p.emails, Person_Kind.KIND_FRIEND, v.manager, builder(Person).scores];",
      ].join("\n");
      writeFileSync(`${dir}/main.ts`, consumer);
      const options: ts.CompilerOptions = {
        target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true, noEmit: true, allowImportingTsExtensions: true, types: [], paths: { hppproto: [`${repoRoot}dist/ts/index.d.ts`], "hppproto/generated": [`${repoRoot}dist/ts/generated.d.ts`] },
      };
      const files = [`${dir}/main.ts`];
      const service = ts.createLanguageService({
        getScriptFileNames: () => files, getScriptVersion: () => "1", getCompilationSettings: () => options,
        getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!) : undefined),
        getCurrentDirectory: () => dir, getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
        fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory, directoryExists: ts.sys.directoryExists,
      });
      expect(service.getSemanticDiagnostics(files[0]!).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
      const doc = (word: string) => ts.displayPartsToString(service.getQuickInfoAtPosition(files[0]!, consumer.lastIndexOf(word) + 1)?.documentation);
      expect(doc("name")).toBe("Their full name."); // leading comment
      expect(doc("id")).toBe("Unique within the book."); // trailing comment on the same line
      expect(doc("emails")).toBe("A block comment,\nover two lines.");
      expect(doc("KIND_FRIEND")).toBe("A friend.");
      expect(doc("manager")).toBe('Sub-message, with a "*\\/" inside the comment.'); // the comment cannot end early
      expect(doc("scores")).toBe("Points by game.");
      expect(doc("PersonView")).toBe("A person in the address book.\nTwo lines.\n\ncomments.Person: a zero-copy view; valid until its arena is reset or released.");
    }
  });

  it("usage errors exit 2", () => {
    expect(run([]).status).toBe(2);
    expect(run(["--out"]).status).toBe(2);
    expect(run(["--bogus", "x.proto", "--out", "o"]).out).toContain("unknown option --bogus");
  });

  it.each([
    ["a syntax error", 'syntax = "proto3";\nmessage A {\n  int32 x = ;\n}\n', /\/a\.proto:3:13: illegal id ';'\n/],
    ["a missing ;", 'syntax = "proto3";\nmessage A {\n  int32 x = 1\n}\n', /\/a\.proto:4:1: illegal token '}', ';' expected\n/],
    ["a missing import", 'syntax = "proto3";\nimport "nowhere/b.proto";\nmessage A { int32 x = 1; }\n', /\/a\.proto:2:8: import "nowhere\/b\.proto" was not found in any --proto_path: looked for \/.*\/nowhere\/b\.proto \(--proto_path \/.*\)\n/],
    ["an unknown type", 'syntax = "proto3";\n// Missing\nmessage A { Missing x = 1; }\n', /\/a\.proto:3:13: unknown type Missing\n/],
    // what protoc rejects
    ["field number 0", 'syntax = "proto3";\nmessage A { int32 x = 0; }\n', /\/a\.proto:2:19: field numbers must be positive integers \(x = 0\)\n/],
    ["a field number in 19000-19999", 'syntax = "proto3";\nmessage A { int32 x = 19500; }\n', /\/a\.proto:2:19: field numbers 19000 through 19999 are reserved for the protocol buffer library implementation \(x = 19500\)\n/],
    ["a field number above 2^29 - 1", 'syntax = "proto2";\nmessage A { optional int32 x = 536870912; }\n', /\/a\.proto:2:28: field numbers cannot be greater than 536870911 \(x = 536870912\)\n/],
    ["a duplicate field number", 'syntax = "proto3";\nmessage A {\n  int32 x = 1;\n  int32 y = 1;\n}\n', /\/a\.proto:4:9: field number 1 has already been used in "A"\n/],
    ["a duplicate field name", 'syntax = "proto3";\nmessage A {\n  int32 x = 1;\n  string x = 2;\n}\n', /\/a\.proto:4:10: "x" is already defined in "A"\n/],
    ["a reserved number used", 'syntax = "proto3";\nmessage A {\n  reserved 2, 5 to 7;\n  int32 x = 6;\n}\n', /\/a\.proto:4:9: field number 6 is reserved in "A"\n/],
    ["a reserved name used", 'syntax = "proto3";\nmessage A {\n  reserved "x";\n  int32 x = 1;\n}\n', /\/a\.proto:4:9: field name "x" is reserved in "A"\n/],
    ["a proto3 enum not starting at zero", 'syntax = "proto3";\nenum E {\n  ONE = 1;\n  ZERO = 0;\n}\n', /\/a\.proto:3:3: the first value of enum E must be zero in proto3\n/],
    ["an unknown syntax", 'syntax = "proto4";\nmessage A { int32 x = 1; }\n', /\/a\.proto:1:1: unknown syntax "proto4": hppproto-gen reads proto2, proto3 and editions/],
    ["an unknown edition", 'edition = "2099";\nmessage A { int32 x = 1; }\n', /\/a\.proto:1:\d+: illegal edition '2099'\n/],
    ["an import path with ..", 'syntax = "proto3";\nimport "../b.proto";\nmessage A { int32 x = 1; }\n', /\/a\.proto:2:8: import "\.\.\/b\.proto": backslashes, consecutive slashes, "\." and "\.\." are not allowed in import paths\n/],
  ])("%s: file:line:col: message, non-zero exit, nothing written", (_what, source, message) => {
    const dir = scratch();
    writeFileSync(`${dir}/a.proto`, source);
    mkdirSync(`${dir}/out`);
    const r = run(["--out", `${dir}/out`, "-I", dir, `${dir}/a.proto`]);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(message);
    expect(readdirSync(`${dir}/out`)).toEqual([]);
  });

  it("runs for other files into the same --out compose: each file's module stands alone with the modules of the files it imports", () => {
    const dir = scratch();
    mkdirSync(`${dir}/p/d1`, { recursive: true });
    mkdirSync(`${dir}/p/d2`);
    writeFileSync(`${dir}/p/d1/a.proto`, 'syntax = "proto2";\npackage a;\nmessage A { optional int32 x = 1; optional string s = 2; extensions 100 to 200; }\n');
    writeFileSync(`${dir}/p/d2/b.proto`, 'syntax = "proto2";\npackage b;\nimport "d1/a.proto";\nmessage B { optional a.A a = 1; repeated a.A as = 2; }\n' +
      "extend a.A { optional int32 level = 100; }\n");
    writeFileSync(`${dir}/p/d2/c.proto`, 'syntax = "proto3";\npackage c;\nmessage C { string t = 1; }\n');
    const gen = (...files: string[]) => spawnSync(process.execPath, [`${repoRoot}bin/hppproto-gen.mjs`, "--out", "gen", "--target", "js", "-I", "p", ...files], { cwd: dir, encoding: "utf8" });
    // one run per file, in an order where a later run writes a module an earlier one imports
    for (const file of ["d2/b.proto", "d2/c.proto", "d1/a.proto"]) expect(gen(file).status).toBe(0);
    expect(readdirSync(`${dir}/gen`).sort()).toEqual(["d1", "d2"]);
    const separate = readFileSync(`${dir}/gen/d2/b_pb.js`, "utf8");
    expect(gen("d1/a.proto", "d2/b.proto", "d2/c.proto").status).toBe(0); // one run for all: the same modules
    expect(readFileSync(`${dir}/gen/d2/b_pb.js`, "utf8")).toBe(separate);
    mkdirSync(`${dir}/node_modules`);
    symlinkSync(repoRoot, `${dir}/node_modules/hppproto`);
    const program = 'import { init, getExtension, setExtension } from "hppproto"; import { A } from "./gen/d1/a_pb.js"; import { B, level } from "./gen/d2/b_pb.js"; ' +
      'import { C } from "./gen/d2/c_pb.js"; await init(); const a = setExtension({ x: 5 }, level, 9); ' +
      "const b = B.decode(B.encode({ a, as: [{ s: \"q\" }] })); " +
      "console.log(b.a.x, getExtension(b.a, level), b.as[0].s, B.view(B.encode(b)).a.x, A.decode(A.encode(b.a)).x, C.decode(C.encode({ t: \"t\" })).t);";
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: dir, encoding: "utf8", env: { ...process.env, NODE_PATH: "" } });
    expect(r.stderr + r.stdout).toBe("5 9 q 5 5 t\n");
  });

  it("removes the run-wide schema module earlier versions wrote (nothing imports it, and it no longer type-checks), and nothing else", () => {
    const dir = scratch();
    writeFileSync(`${dir}/a.proto`, 'syntax = "proto3";\nmessage A { int32 x = 1; }\n');
    mkdirSync(`${dir}/out`);
    writeFileSync(`${dir}/out/hppproto_schema.ts`, '// Generated by hppproto-gen. Do not edit.\nimport { defineSchema } from "hppproto/generated";\n');
    writeFileSync(`${dir}/out/hppproto_schema.d.ts`, "// someone else's\n");
    expect(run(["--out", `${dir}/out`, "-I", dir, `${dir}/a.proto`]).status).toBe(0);
    expect(readdirSync(`${dir}/out`).sort()).toEqual(["a_pb.ts", "hppproto_schema.d.ts"]);
  });

  it("map fields whose names hold doubled underscores or capitals after one: their entries pass the descriptor checks (protoc's entry names), and the output works", () => {
    const dir = scratch();
    writeFileSync(`${dir}/m.proto`, 'syntax = "proto3";\nmessage M { map<int32, int32> foo__bar = 1; map<string, string> a_B = 2; map<int32, int32> x_1y = 3; }\n');
    const r = spawnSync(process.execPath, [`${repoRoot}bin/hppproto-gen.mjs`, "--out", "gen", "--target", "js", "m.proto"], { cwd: dir, encoding: "utf8" });
    expect([r.status, r.stderr]).toEqual([0, expect.stringContaining("1 module,")]);
    mkdirSync(`${dir}/node_modules`);
    symlinkSync(repoRoot, `${dir}/node_modules/hppproto`);
    const run = spawnSync(process.execPath, ["--input-type=module", "-e",
      'import { init } from "hppproto"; import { M } from "./gen/m_pb.js"; await init(); console.log(JSON.stringify(M.decode(M.encode({ fooBar: { 1: 2 }, aB: { k: "v" }, x1y: { 3: 4 } }))));'],
      { cwd: dir, encoding: "utf8" });
    expect(run.stderr + run.stdout).toBe('{"fooBar":{"1":2},"aB":{"k":"v"},"x1y":{"3":4}}\n');
  });

  it("a file named on the command line that is nowhere: the error says where it looked", () => {
    const dir = scratch();
    mkdirSync(`${dir}/protos`);
    const r = spawnSync(process.execPath, [`${repoRoot}bin/hppproto-gen.mjs`, "--out", "out", "-I", "protos", "nope.proto"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`hppproto-gen: nope.proto: file not found: looked for ${dir}/nope.proto, ${dir}/protos/nope.proto (--proto_path ${dir}/protos)`);
  });

  it("string defaults holding // and /* are kept as written", async () => {
    const dir = scratch();
    writeFileSync(`${dir}/d.proto`, [
      'syntax = "proto2";', "message D {",
      '  optional string url = 1 [default = "https://api.example.com/v1"]; // a comment',
      '  optional string note = 2 [default = "/* all */"];', "  optional int32 after = 3 [default = 7]; /* 8 */", "}", ""].join("\n"));
    const out = `${dir}/out`;
    const r = run(["--out", out, "--target", "js", "--runtime_import", `${repoRoot}dist/ts/generated.js`, "d.proto"], dir);
    expect(r.status).toBe(0);
    const { D } = (await import(`${out}/d_pb.js`)) as { D: { view(b: Uint8Array): { url: string; note: string; after: number } } };
    const v = D.view(new Uint8Array(0));
    expect([v.url, v.note, v.after]).toEqual(["https://api.example.com/v1", "/* all */", 7]);
  });

  it("a path with line terminators in it stays inside the generated comment", async () => {
    const dir = scratch();
    // after the line separator the header line would read `globalThis... = true; /*/e.proto. ...`, and
    // the block comment it opens ends with the next line's `/* eslint-disable */`: valid code
    const folder = "x\u2028globalThis.hppprotoInjected = true; /*";
    mkdirSync(`${dir}/${folder}`, { recursive: true });
    writeFileSync(`${dir}/${folder}/e.proto`, 'syntax = "proto3";\npackage evil;\nmessage E { int32 x = 1; }\n');
    const r = run(["--out", `${dir}/out`, "--target", "js", "--runtime_import", `${repoRoot}dist/ts/generated.js`, `${folder}/e.proto`], dir);
    expect(r.status).toBe(0);
    const { E } = (await import(`${dir}/out/${folder}/e_pb.js`)) as { E: { typeName: string } };
    expect(E.typeName).toBe("evil.E");
    expect((globalThis as { hppprotoInjected?: boolean }).hppprotoInjected).toBeUndefined();
  });

  it("well-known types named on the command line, as protoc names them", () => {
    const dir = scratch();
    const r = run(["--out", `${dir}/out`, "google/protobuf/struct.proto", "google/protobuf/descriptor.proto"], dir);
    expect(r.status).toBe(0);
    expect(readdirSync(`${dir}/out/google/protobuf`).sort()).toEqual(["descriptor_pb.ts", "struct_pb.ts"]);
  });

  it("edition 2024: export and local, import option, and 2023's field semantics", () => {
    const dir = scratch();
    writeFileSync(`${dir}/e.proto`, EDITION_2024);
    expect(run(["--out", `${dir}/out`, "e.proto"], dir).status).toBe(0);
    const { types } = loadSchema([`${dir}/e.proto`], [dir]);
    const T = types.get("e24.Outer")!;
    expect([findField(T, "s")!.presence, findField(T, "nums")!.packed, findField(T, "kind")!.enum!.closed, findField(T, "inner")!.message]).toEqual(["explicit", true, false, "e24.Outer.Inner"]);
    const bytes = T.encode({ s: "x", nums: [1, 2], kind: 1, inner: { x: 3 } });
    expect(T.decode(bytes)).toEqual({ s: "x", nums: [1, 2], kind: 1, inner: { x: 3 } });
  });

  it("a file of custom options only gets a module: its extensions, for getOption", async () => {
    const dir = scratch();
    writeFileSync(`${dir}/opt.proto`, OPTIONS_ONLY);
    writeFileSync(`${dir}/use.proto`, OPTIONS_USED);
    const r = run(["--out", `${dir}/out`, "--target", "js", "--runtime_import", `${repoRoot}dist/ts/generated.js`, "use.proto"], dir);
    expect(r.status, r.out).toBe(0);
    const opt = (await import(`${dir}/out/opt_pb.js`)) as Record<string, unknown>;
    const { W, file_use } = (await import(`${dir}/out/use_pb.js`)) as Record<"W" | "file_use", Parameters<typeof getOption>[0]>;
    expect(Object.keys(opt).sort()).toEqual(["$schema", "file_note", "weights"]);
    const weights = opt["weights"] as Extension<unknown, number[]>, note = opt["file_note"] as Extension<unknown, string>;
    expect([weights instanceof Extension, weights.typeName, weights.number]).toEqual([true, "opt.weights", 50101]);
    expect(getOption(W, weights)).toEqual([7, 8]);
    expect(getOption(file_use, note)).toBe("used");
  });

  it("--version prints the version", () => {
    expect(run(["--version"])).toEqual({ status: 0, out: "0.1.0\n" });
  });

  it("a service is generated with its messages, without warnings; a file of services only gets a module", () => {
    const dir = scratch();
    writeFileSync(`${dir}/m.proto`, 'syntax = "proto3";\npackage p;\nmessage Q { int32 x = 1; }\n');
    writeFileSync(`${dir}/s.proto`, 'syntax = "proto3";\npackage p;\nimport "m.proto";\nservice Search { rpc Find(Q) returns (stream Q); }\n');
    const r = run(["--out", `${dir}/out`, "s.proto"], dir);
    expect(r.status).toBe(0);
    expect(r.out).not.toContain("service");
    const module = readFileSync(`${dir}/out/s_pb.ts`, "utf8");
    expect(module).toContain('export const Search: $ServiceType<{');
    expect(module).toContain('find: ["Find", $dep0.Q, $dep0.Q, 1],');
  });

  it("without -I the working directory is the include path, as with protoc: files named and imported load once", () => {
    const dir = scratch();
    mkdirSync(`${dir}/google/api`, { recursive: true });
    mkdirSync(`${dir}/sib`);
    writeFileSync(`${dir}/google/api/http.proto`, 'syntax = "proto3";\npackage google.api;\nmessage Http { string s = 1; }\n');
    writeFileSync(`${dir}/google/api/annotations.proto`, 'syntax = "proto3";\npackage google.api;\nimport "google/api/http.proto";\nmessage Uses { Http http = 1; }\n');
    writeFileSync(`${dir}/sib/b.proto`, 'syntax = "proto3";\nmessage B { int32 x = 1; }\n');
    writeFileSync(`${dir}/sib/c.proto`, 'syntax = "proto3";\nimport "sib/b.proto";\nmessage C { B b = 1; }\n');
    // as `hppproto-gen --out gen $(find google -name '*.proto')` in a googleapis checkout
    const both = run(["--out", "gen", "google/api/http.proto", "google/api/annotations.proto"], dir);
    expect(both.status).toBe(0);
    expect(readdirSync(`${dir}/gen/google/api`).sort()).toEqual(["annotations_pb.ts", "http_pb.ts"]);
    expect(run(["--out", "gen2", "sib/c.proto"], dir).status).toBe(0);
    expect(readdirSync(`${dir}/gen2/sib`).sort()).toEqual(["b_pb.ts", "c_pb.ts"]);
  });

  it("--proto_path resolves imports, and the output imports them back", () => {
    const dir = scratch();
    mkdirSync(`${dir}/inc/dep`, { recursive: true });
    writeFileSync(`${dir}/inc/dep/b.proto`, 'syntax = "proto3";\npackage dep;\nmessage B { string s = 1; }\n');
    writeFileSync(`${dir}/a.proto`, 'syntax = "proto3";\nimport "dep/b.proto";\nimport "google/protobuf/timestamp.proto";\nmessage A { dep.B b = 1; google.protobuf.Timestamp t = 2; }\n');
    const r = run(["--out", `${dir}/out`, "--proto_path", `${dir}/inc`, `${dir}/a.proto`]);
    expect(r.status).toBe(0);
    expect(existsSync(`${dir}/out/dep/b_pb.ts`)).toBe(true);
    expect(existsSync(`${dir}/out/google/protobuf/timestamp_pb.ts`)).toBe(true);
    expect(readdirSync(`${dir}/out`).sort()).toEqual(["a_pb.ts", "dep", "google"]);
  });

  it("an include path reached through a symlink keeps the files' import names", () => {
    const dir = scratch();
    mkdirSync(`${dir}/real/dep`, { recursive: true });
    writeFileSync(`${dir}/real/dep/b.proto`, 'syntax = "proto3";\npackage dep;\nmessage B { string s = 1; }\n');
    writeFileSync(`${dir}/real/a.proto`, 'syntax = "proto3";\nimport "dep/b.proto";\nmessage A { dep.B b = 1; }\n');
    symlinkSync(`${dir}/real`, `${dir}/link`);
    // from inside the link, as a build tool with a symlinked workspace runs it
    const r = spawnSync(process.execPath, [cli, "--out", `${dir}/out`, "-I", `${dir}/link`, "a.proto", "dep/b.proto"], { cwd: `${dir}/link`, encoding: "utf8" });
    expect(r.stderr).toMatch(/2 modules, 2 messages/);
    expect(readdirSync(`${dir}/out`).sort()).toEqual(["a_pb.ts", "dep"]);
  });

  it("output works from CommonJS", () => {
    const dir = scratch();
    execFileSync(process.execPath, [cli, "--out", `${dir}/src`, "-I", `${repoRoot}examples/quickstart`, `${repoRoot}examples/quickstart/addressbook.proto`]);
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({
      compilerOptions: { target: "ES2022", module: "CommonJS", moduleResolution: "Node10", strict: true, outDir: "cjs", rootDir: "src", skipLibCheck: true, types: [] },
      include: ["src"],
    }));
    mkdirSync(`${dir}/node_modules`);
    symlinkSync(repoRoot, `${dir}/node_modules/hppproto`);
    writeFileSync(`${dir}/package.json`, JSON.stringify({ type: "commonjs" }));
    execFileSync(process.execPath, [tsc, "-p", dir]);
    writeFileSync(`${dir}/main.cjs`, [
      'const { init } = require("hppproto");',
      'const { Person } = require("./cjs/addressbook_pb.js");',
      "init().then(() => {",
      "  const bytes = Uint8Array.from([10, 3, 65, 100, 97, 16, 7]);",
      "  const p = Person.decode(bytes);",
      "  console.log(p.name, p.id, Person.view(bytes).name);",
      "});",
    ].join("\n"));
    const out = execFileSync(process.execPath, ["--no-warnings", `${dir}/main.cjs`], { encoding: "utf8" });
    expect(out.trim()).toBe("Ada 7 Ada");
  });
});

describe("hppproto-gen decode / encode", () => {
  const loaded = loadSet("conformance");
  const typeName = "protobuf_test_messages.proto3.TestAllTypesProto3";
  const type = loaded.types.get(typeName)!;
  const protoArgs = ["--type", typeName, "-I", conformanceProtos, "google/protobuf/test_messages_proto3.proto"];

  it("print and read what the generated code prints and reads, for random messages", () => {
    const model = loaded.models.get(typeName)!;
    const r = rng(4242);
    for (let i = 0; i < 5; i++) {
      const bytes = encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r));
      const plain = type.decode(bytes);
      let json: string;
      try {
        json = toJsonString(type, plain);
      } catch {
        continue; // a value ProtoJSON cannot hold: covered in json.test.ts
      }
      const decoded = pipe(["decode", ...protoArgs], bytes);
      expect(decoded.stderr).toBe("");
      expect(JSON.parse(new TextDecoder().decode(decoded.stdout))).toEqual(JSON.parse(json));
      const encoded = pipe(["encode", ...protoArgs], json);
      expect(encoded.status).toBe(0);
      expect(encoded.stdout).toEqual(type.encode(fromJsonString(type, json)));
    }
  });

  it("decode --text / encode --text: the text format as the generated code prints and reads it", () => {
    const model = loaded.models.get(typeName)!;
    const r = rng(777);
    for (let i = 0; i < 5; i++) {
      const bytes = encodeWithProtobufjs(loaded, typeName, randomObject(loaded, model, r));
      const text = toText(type, type.decode(bytes));
      const decoded = pipe(["decode", "--text", ...protoArgs], bytes);
      expect(decoded.stderr).toBe("");
      expect(new TextDecoder().decode(decoded.stdout)).toBe(text);
      const encoded = pipe(["encode", "--text", ...protoArgs], text);
      expect(encoded.status).toBe(0);
      expect(encoded.stdout).toEqual(type.encode(fromText(type, text)));
    }
    const bad = pipe(["encode", "--text", ...protoArgs], "optional_int32: 1\noptional_int32: 2\n");
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain(`2:1: non-repeated field optional_int32 is given more than once (${typeName}.optional_int32) [DUPLICATE_FIELD]`);
    expect(pipe(["decode", "--text", "--indent", "2", ...protoArgs], "").stderr).toContain("--text takes none of the JSON options");
  });

  it("decode takes the JSON print options", () => {
    const bytes = type.encode({ optionalNestedEnum: 2 } as never);
    const out = pipe(["decode", "--enums_as_ints", "--proto_names", "--indent", "1", ...protoArgs], bytes);
    expect(new TextDecoder().decode(out.stdout)).toBe('{\n "optional_nested_enum": 2\n}\n');
    const defaults = pipe(["decode", "--emit_defaults", ...protoArgs], new Uint8Array(0));
    expect(JSON.parse(new TextDecoder().decode(defaults.stdout))).toMatchObject({ optionalInt32: 0, repeatedInt32: [] });
  });

  it("decode --raw prints wire values without a schema, as protoc --decode_raw", () => {
    // 1: 150, 2: "hi\x01", 3 { 1: 7 }, 4: fixed32, 5: fixed64, group 6 { 1: 1 }
    const bytes = new Uint8Array([0x08, 0x96, 0x01, 0x12, 0x03, 0x68, 0x69, 0x01, 0x1a, 0x02, 0x08, 0x07,
      0x25, 0x01, 0x00, 0x00, 0x00, 0x29, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x33, 0x08, 0x01, 0x34]);
    const out = pipe(["decode", "--raw"], bytes);
    expect(new TextDecoder().decode(out.stdout)).toBe(
      '1: 150\n2: "hi\\001"\n3 {\n  1: 7\n}\n4: 0x00000001\n5: 0xffffffffffffffff\n6 {\n  1: 1\n}\n');
    // U+FEFF leading a string is text (TextDecoder drops it unless told not to)
    expect(new TextDecoder().decode(pipe(["decode", "--raw"], new Uint8Array([0x08, 0x01, 0x12, 0x04, 0xef, 0xbb, 0xbf, 0x71])).stdout)).toBe('1: 1\n2: "\uFEFFq"\n');
    const bad = pipe(["decode", "--raw"], new Uint8Array([0x0a, 0x05, 0x01]));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("past the end");
  });

  it("decode --raw stops nesting at 100 levels, as protoc's recursion limit does", () => {
    // 150 messages nested in field 1, the innermost holding 1: 1
    let bytes = new Uint8Array([0x08, 0x01]);
    for (let i = 0; i < 150; i++) bytes = new Uint8Array([...new Wire().tag(1, 2).varint(bytes.length).finish(), ...bytes]);
    const lines = new TextDecoder().decode(pipe(["decode", "--raw"], bytes).stdout).split("\n");
    expect(lines.filter((l) => l.endsWith("1 {"))).toHaveLength(100);
    expect(lines[100]).toMatch(/^ {200}1: "/); // the 101st level as a string, its bytes escaped
    let groups: number[] = [];
    for (let i = 0; i < 150; i++) groups = [0x0b, ...groups, 0x0c]; // group 1, nested
    const deep = pipe(["decode", "--raw"], new Uint8Array(groups));
    expect([deep.status, deep.stderr]).toEqual([1, expect.stringContaining("groups nested deeper than 100")]);
  });

  it("a message of 10,000 fields generates and decodes", async () => {
    const dir = mkdtempSync(`${tmpdir()}/hppproto-gen-`);
    const fields = Array.from({ length: 10_000 }, (_, i) => `  int32 f${i} = ${i < 18999 ? i + 1 : i + 1001};`);
    writeFileSync(`${dir}/big.proto`, `syntax = "proto3";\nmessage Big {\n${fields.join("\n")}\n}\n`);
    const r = run(["--out", `${dir}/out`, "--target", "js", "--runtime_import", `${repoRoot}dist/ts/generated.js`, "big.proto"], dir);
    expect(r.status).toBe(0);
    const { Big } = (await import(`${dir}/out/big_pb.js`)) as { Big: { decode(b: Uint8Array): Record<string, number> } };
    expect(Big.decode(new Wire().tag(10_000, 0).varint(5).finish()).f9999).toBe(5);
  });

  it("bad input and bad usage: a clear message and a non-zero exit", () => {
    const truncated = pipe(["decode", ...protoArgs], new Uint8Array([0x72, 0x05])); // optional_string, 5 bytes missing
    expect(truncated.status).toBe(1);
    expect(truncated.stderr).toMatch(/byte \d+.*\[LENGTH_OUT_OF_BOUNDS\]/);
    const badJson = pipe(["encode", ...protoArgs], '{"optionalInt32": "x"}');
    expect(badJson.status).toBe(1);
    expect(badJson.stderr).toContain("optionalInt32");
    expect(pipe(["encode", "--ignore_unknown_fields", ...protoArgs], '{"nope": 1}').status).toBe(0);
    expect(pipe(["decode", "--type", "no.Such", "-I", conformanceProtos, "google/protobuf/test_messages_proto3.proto"], "").stderr)
      .toContain("no message type no.Such");
    expect(pipe(["decode", "--type", "TestAllTypesProto3", "-I", conformanceProtos, "google/protobuf/test_messages_proto3.proto"], "").stderr)
      .toContain("no message type TestAllTypesProto3 in google/protobuf/test_messages_proto3.proto (did you mean protobuf_test_messages.proto3.TestAllTypesProto3? --type takes the full name, package included)");
    expect(pipe(["decode", ...protoArgs.slice(2)], "").status).toBe(2);
    expect(pipe(["encode", "--raw"], "").status).toBe(2);
  });
});
