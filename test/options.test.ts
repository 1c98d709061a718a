// hppproto-gen's output options: --int64 (and the jstype field option), --facades, --target js,
// --import_extension. Each variant of test/protos/wide.proto is checked against the default
// output, which itself is checked against protobufjs.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { init, MessageView, toJsonString, fromJsonString, builder } from "hppproto";
import type { FieldModel, MessageModel } from "../dist/codegen/model.js";
import { FieldType, Label } from "../dist/ts/schema.js";
import { checkView, crossCheck, encodeWithProtobufjs, loadSet, randomObject, rng } from "./support/protos.js";
import { genDir, repoRoot } from "./support/paths.js";

beforeAll(async () => {
  await init();
});

const tsc = `${repoRoot}node_modules/typescript/bin/tsc`;
/** TypeScript 7, the native compiler, which has no JavaScript API for a generator to lean on. */
const tsc7 = `${repoRoot}node_modules/typescript-7/bin/tsc`;
const cli = `${repoRoot}bin/hppproto-gen.mjs`;
const wideProto = `${repoRoot}test/protos/wide.proto`;

const wide = loadSet("wide");
const typeNames = ["wide.Wide", "wide.Sub"];

const is64 = (f: FieldModel) =>
  [FieldType.Int64, FieldType.Uint64, FieldType.Sint64, FieldType.Fixed64, FieldType.Sfixed64].includes(f.type);

/**
 * A plain object of the default output with every 64-bit value that has no jstype option passed
 * through `to` (what --int64 string or number should give), walking the schema model.
 */
function convert64(m: MessageModel, obj: Record<string, unknown>, to: (v: bigint) => unknown, withKeys = false): Record<string, unknown> {
  const value = (f: FieldModel, v: unknown): unknown => {
    if (v === undefined) return v;
    if (f.type === FieldType.Message) return convert64(f.message!, v as Record<string, unknown>, to, withKeys);
    return is64(f) && f.jsType === undefined ? to(v as bigint) : v;
  };
  const out: Record<string, unknown> = { ...obj };
  for (const f of m.fields) {
    if (f.oneof || !Object.hasOwn(obj, f.prop)) continue; // an unset field with a declared default: inherited, not copied
    const v = obj[f.prop];
    if (f.label === Label.Map) {
      const [entryKey, entryValue] = f.mapEntry!.fields as [FieldModel, FieldModel];
      const key = (k: string) => (withKeys && is64(entryKey) ? String(to(BigInt(k))) : k);
      out[f.prop] = Object.fromEntries(Object.entries(v as object).map(([k, x]) => [key(k), value(entryValue, x)]));
    } else if (f.label === Label.Repeated) out[f.prop] = (v as unknown[]).map((x) => value(f, x));
    else out[f.prop] = value(f, v);
  }
  for (const o of m.oneofs) {
    const c = obj[o.prop] as { case: string; value: unknown } | undefined;
    if (c) out[o.prop] = { case: c.case, value: value(o.fields.find((f) => f.prop === c.case)!, c.value) };
  }
  return out;
}

/** Random messages of the default output, checked against protobufjs; `clamp` keeps 64-bit values within ±2^52. */
function* samples(typeName: string, count: number, clamp = false) {
  const model = wide.models.get(typeName)!;
  const type = wide.types.get(typeName)!;
  const r = rng(typeName.length * 31);
  for (let i = 0; i < count; i++) {
    let bytes = encodeWithProtobufjs(wide, typeName, randomObject(wide, model, r));
    crossCheck(wide, typeName, bytes);
    let plain = type.decode(bytes) as Record<string, unknown>;
    if (clamp) {
      plain = convert64(model, plain, (v) => v % 2n ** 52n, true);
      bytes = type.encode(plain);
      plain = type.decode(bytes) as Record<string, unknown>;
    }
    yield { model, type, bytes, plain };
  }
}

describe("--int64 and the jstype option", () => {
  it("jstype = JS_STRING / JS_NUMBER fields read as strings / numbers under the default, views included", () => {
    const type = wide.types.get("wide.Wide")!;
    const bytes = type.encode({ asString: "-9223372036854775808", asNumber: 9007199254740991, stringsList: ["1", "-2"], i64: 5n });
    const plain = type.decode(bytes);
    expect(plain).toMatchObject({ asString: "-9223372036854775808", asNumber: 9007199254740991, stringsList: ["1", "-2"], i64: 5n });
    const view = type.view(bytes);
    expect([view.asString, view.asNumber, view.i64]).toEqual(["-9223372036854775808", 9007199254740991, 5n]);
    expect(view.stringsList).toEqual(new BigInt64Array([1n, -2n])); // zero-copy lists stay typed arrays
    expect(toJsonString(type, plain)).toContain('"asString":"-9223372036854775808","asNumber":"9007199254740991"');
  });

  for (const [variant, to] of [["wide_string", String], ["wide_number", Number]] as const) {
    it(`${variant.slice(5)}: decode, views, encode, builders and JSON carry the default output's values`, () => {
      const other = loadSet(variant);
      for (const typeName of typeNames) {
        for (const { model, type, bytes, plain } of samples(typeName, 40, to === Number)) {
          const t = other.types.get(typeName)!;
          const expected = convert64(model, plain, to);
          expect(t.decode(bytes)).toEqual(expected);
          expect(t.encode(expected)).toEqual(type.encode(plain));
          expect(t.encode(t.view(bytes))).toEqual(type.encode(plain));
          expect(t.view(bytes).$toObject()).toEqual(expected);
          const json = toJsonString(type, plain, { emitDefaults: true });
          expect(toJsonString(t, expected, { emitDefaults: true })).toBe(json);
          expect(fromJsonString(t, json)).toEqual(expected);
          if (typeName === "wide.Wide") {
            const view = t.view(bytes);
            expect(view.i64).toBe(expected.i64 ?? to(0n));
            expect(view.withDefault).toBe(expected.withDefault ?? to(-42n));
            expect([t.decode(bytes).withDefault, t.decode(bytes).safeDefault]).toEqual([view.withDefault, view.safeDefault]); // plain objects read the defaults too
            expect(view.packedI64).toBeInstanceOf(BigInt64Array);
            expect(Array.from(view.packedI64 as BigInt64Array)).toEqual(plain.packedI64);
            const byId = [...(view.byId as Iterable<[unknown, unknown]>)];
            expect(byId.map(([k]) => typeof k).every((k) => k === typeof to(0n))).toBe(true);
          }
        }
      }
      const b = builder(other.types.get("wide.Wide")!);
      b.i64 = to(-3n);
      b.packedI64 = [to(1n), to(-2n)];
      b.addUnpackedU64(to(7n));
      b.byId = { "4": to(5n) };
      expect(other.types.get("wide.Wide")!.encode(b)).toEqual(
        wide.types.get("wide.Wide")!.encode({ i64: -3n, packedI64: [1n, -2n], unpackedU64: [7n], byId: { "4": 5n } }));
      b.$release();
    });
  }

  it("number: a value beyond 2^53 - 1 is a RangeError naming the field, never a rounded number", () => {
    const full = wide.types.get("wide.Wide")!;
    const t = loadSet("wide_number").types.get("wide.Wide")!;
    const cases: [object, RegExp][] = [
      [{ u64: 2n ** 53n }, /^wide\.Wide\.u64: 9007199254740992 is beyond Number\.MAX_SAFE_INTEGER/],
      [{ sf64: -(2n ** 63n) }, /^wide\.Wide\.sf64: -9223372036854775808 is beyond/],
      [{ packedI64: [1n, 2n ** 60n] }, /^wide\.Wide\.packed_i64: 1152921504606846976 is beyond/],
      [{ byId: { "1": 2n ** 62n } }, /^wide\.Wide\.by_id \(map value\): 4611686018427387904 is beyond/],
      [{ sub: { id: -(2n ** 53n) } }, /^wide\.Sub\.id: -9007199254740992 is beyond/],
    ];
    for (const [obj, message] of cases) {
      const bytes = full.encode(obj);
      expect(() => t.decode(bytes)).toThrow(RangeError);
      expect(() => t.decode(bytes)).toThrow(message);
    }
    expect(() => t.view(full.encode({ i64: 2n ** 53n })).i64).toThrow(/^wide\.Wide\.i64: 9007199254740992 is beyond/);
    // plain objects key maps by strings, so any key reads; a view's keys are numbers
    const bigKey = full.encode({ byId: { [String(2n ** 62n)]: 1n } });
    expect(t.decode(bigKey).byId).toEqual({ "4611686018427387904": 1 });
    expect(() => [...t.view(bigKey).byId]).toThrow(/^wide\.Wide\.by_id \(map key\): 4611686018427387904 is beyond/);
    expect(t.decode(full.encode({ i64: 2n ** 53n - 1n, sub: { id: -(2n ** 53n) + 1n } }))).toMatchObject({ i64: 2 ** 53 - 1, sub: { id: -(2 ** 53) + 1 } });
  });
});

describe("--facades", () => {
  const views = loadSet("wide_views").types.get("wide.Wide")!;
  const plain = loadSet("wide_plain").types.get("wide.Wide")!;
  const builders = loadSet("wide_builders").types.get("wide.Wide")!;
  const module = (variant: string) => readFileSync(`${genDir}/${variant}/wide_pb.ts`, "utf8");

  it("views: view() and viewDelimited() read what protobufjs wrote, encode(view) round-trips; the rest is absent", () => {
    for (const { model, type, bytes, plain: expected } of samples("wide.Wide", 30)) {
      checkView(model, views.view(bytes), expected);
      expect(views.encode(views.view(bytes))).toEqual(type.encode(expected));
      expect(views.viewDelimited(type.encodeDelimited([expected, expected]))).toHaveLength(2);
    }
    const bytes = new Uint8Array([8, 1]);
    expect(() => views.decode(bytes)).toThrow("wide.Wide was generated without plain objects (hppproto-gen --facades)");
    expect(() => views.encode({ i64: 1n } as never)).toThrow("wide.Wide was generated without plain objects");
    expect(() => builder(views)).toThrow("wide.Wide was generated without builders");
    expect("toJson" in views).toBe(false);
    expect("$toObject" in views.view(bytes)).toBe(false);
    expect(module("wide_views")).not.toMatch(/read\$Wide|fill\$Wide|WideBuilder|interface Wide/);
  });

  it("plain: decode(), decodeDelimited() and encode() as the full output; no view classes", () => {
    for (const { type, bytes, plain: expected } of samples("wide.Wide", 30)) {
      expect(plain.decode(bytes)).toEqual(expected);
      expect(plain.encode(expected)).toEqual(type.encode(expected));
      expect(plain.decodeDelimited(type.encodeDelimited([expected]))).toEqual([expected]);
    }
    expect(() => plain.view(new Uint8Array(0))).toThrow("wide.Wide was generated without views");
    expect(() => plain.encode(wide.types.get("wide.Wide")!.view(new Uint8Array(0)) as never)).toThrow(/a view of another message type/);
    expect(module("wide_plain")).not.toMatch(/class WideView|WideBuilder|json: \[/);
  });

  it("builders: build and encode as the full output, with the views they extend", () => {
    const b = builder(builders);
    b.i64 = 7n;
    b.mutableSub().name = "s";
    b.addSubs().id = 3n;
    b.byId = { "1": 2n };
    const expected = { i64: 7n, sub: { name: "s" }, subs: [{ id: 3n }], byId: { "1": 2n } };
    expect(builders.encode(b)).toEqual(wide.types.get("wide.Wide")!.encode(expected));
    expect(builders.view(builders.encode(b)).sub?.name).toBe("s");
    expect(builders.encode(expected)).toEqual(builders.encode(b)); // fillers come with builders
    b.$release();
    expect(() => builders.decode(new Uint8Array(0))).toThrow("without plain objects");
  });

  it("what is left out is not in the bundle: the JSON reader comes with fromJson(), the writer with toJson(); a views-only decode carries no JSON, plain-object or builder code; a plain-only decode no view code", async () => {
    const bundle = async (variant: string, read = "view", json = "") => {
      const r = await build({
        stdin: { contents: `import { fromJsonString, toJsonString } from "hppproto"; import { Wide } from "./${variant}/wide_pb.ts"; console.log(Wide.${read}(new Uint8Array(0)).i64${json});`, resolveDir: genDir, loader: "ts" },
        bundle: true, minify: true, write: false, format: "esm", platform: "browser",
        alias: { "hppproto/codec": `${repoRoot}dist/ts/codec.browser.js`, hppproto: `${repoRoot}dist/ts/index.js`, "hppproto/generated": `${repoRoot}dist/ts/generated.js` }, external: ["*.wasm"], logLevel: "silent",
      });
      return r.outputFiles[0]!.text;
    };
    const [full, viewsOnly] = [await bundle("wide"), await bundle("wide_views")];
    expect(full).not.toContain("fromJsonString"); // the reader's name in its errors: it comes with the function
    expect(await bundle("wide", "view", ", fromJsonString(Wide, \"{}\")")).toContain("fromJsonString");
    // ProtoJSON's non-finite floats, in the writers' runtime: it comes with the function, the generated writers get it from there
    expect(full).not.toContain("Infinity");
    expect(await bundle("wide", "view", ", toJsonString(Wide, {})")).toContain("Infinity");
    expect(viewsOnly).not.toContain("fromJsonString");
    expect(viewsOnly).not.toContain("Infinity");
    expect(viewsOnly).not.toContain("$clear"); // builders
    // the codec comes inlined (inflated by DecompressionStream) only where a message needs it: views
    // of proto2 strings (which need not be text) are encoded by the codec, plain objects by generated code
    expect(full).toContain("DecompressionStream");
    expect(viewsOnly).toContain("DecompressionStream");
    // message types tell views by a mark, not by instanceof MessageView, which brought the view classes in
    const plainOnly = await bundle("wide_plain", "decode");
    expect(full).toContain("$valid");
    expect(plainOnly).not.toContain("$valid");
    expect(plainOnly).not.toContain("DecompressionStream");
  });

  it("a bundle that uses one message of a file leaves the file's other messages and the files they import out, but for their schemas", async () => {
    const file = "conformance/google/protobuf/test_messages_proto3_pb.ts";
    /** Bytes of each module a program keeps, by the end of its path. */
    const keptBy = async (program: string) => {
      const r = await build({
        stdin: { contents: program, resolveDir: genDir, loader: "ts" },
        bundle: true, minify: true, write: false, format: "esm", platform: "browser", metafile: true,
        alias: { "hppproto/codec": `${repoRoot}dist/ts/codec.browser.js`, hppproto: `${repoRoot}dist/ts/index.js`, "hppproto/generated": `${repoRoot}dist/ts/generated.js` }, external: ["*.wasm"], logLevel: "silent",
      });
      const inputs = Object.values(r.metafile.outputs)[0]!.inputs;
      return (name: string) => Object.entries(inputs).find(([path]) => path.endsWith(name))?.[1].bytesInOutput ?? 0;
    };
    const kept = await keptBy(`import { ForeignMessage } from "./${file}"; console.log(ForeignMessage.decode(new Uint8Array(0)).c);`);
    // each file's schema (its table, compiled decoders, and the schemas and decoders of the files it links to) stays whole
    const schemaOnly = await keptBy(`import { $decoders } from "./${file}"; console.log($decoders);`);
    // ForeignMessage (one int32) is ~2 KB of the file's ~110 KB of code; nothing of wrappers, struct, any... but their schemas
    expect(kept("test_messages_proto3_pb.ts")).toBeGreaterThan(schemaOnly("test_messages_proto3_pb.ts"));
    expect(kept("test_messages_proto3_pb.ts")).toBeLessThan(schemaOnly("test_messages_proto3_pb.ts") + 5000);
    for (const wkt of ["wrappers_pb.ts", "struct_pb.ts", "any_pb.ts", "timestamp_pb.ts"]) {
      expect(schemaOnly(wkt), wkt).toBeGreaterThan(0);
      expect(kept(wkt), wkt).toBeLessThan(schemaOnly(wkt) + 64); // (minified names differ)
    }
  });

  it("a bundled program reads JSON holding well-known types: the types it reads them with stay in the bundle", async () => {
    // (failed before: the parent's reader found Timestamp by index in the schema, and the bundler had dropped it)
    const file = "conformance/google/protobuf/test_messages_proto3_pb.ts";
    const json = '{"optionalDuration":"1.500s","optionalTimestamp":"2020-01-01T00:00:00Z","optionalValue":[1,"a"]}';
    const r = await build({
      stdin: {
        contents: `import { readFileSync } from "node:fs"; import { init, fromJsonString, toJsonString } from "hppproto"; import { TestAllTypesProto3 as T } from "./${file}";
          await init({ wasm: readFileSync(${JSON.stringify(`${repoRoot}wasm/dist/hppproto.wasm`)}) });
          const m = fromJsonString(T, ${JSON.stringify(json)}); console.log(String(m.optionalTimestamp.seconds), m.optionalDuration.nanos, toJsonString(T, m));`,
        resolveDir: genDir, loader: "ts",
      },
      bundle: true, minify: true, write: false, format: "esm", platform: "node", alias: { "hppproto/codec": `${repoRoot}dist/ts/codec.js`, hppproto: `${repoRoot}dist/ts/index.js`, "hppproto/generated": `${repoRoot}dist/ts/generated.js` }, logLevel: "silent",
    });
    const dir = mkdtempSync(`${tmpdir()}/hppproto-wkt-bundle-`);
    writeFileSync(`${dir}/bundle.mjs`, r.outputFiles[0]!.text);
    expect(execFileSync(process.execPath, [`${dir}/bundle.mjs`], { encoding: "utf8" }).trim()).toBe(`1577836800 500000000 ${json}`);
  });
});

describe("--target js", () => {
  it("JavaScript modules and declarations written without TypeScript: they run, and a strict consumer is type-checked against them by TypeScript 5.9 and 7", async () => {
    const mod = (await import(`${genDir}/wide_js/wide_pb.js`)) as Record<string, any>;
    for (const { bytes, plain: expected } of samples("wide.Wide", 20)) {
      expect(mod.Wide.decode(bytes)).toEqual(expected);
      expect(mod.Wide.view(bytes)).toBeInstanceOf(MessageView);
      expect(fromJsonString(mod.Wide, toJsonString(mod.Wide, expected))).toEqual(expected);
    }
    const dir = mkdtempSync(`${tmpdir()}/hppproto-js-consumer-`);
    const config = {
      compilerOptions: {
        target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: [],
        lib: ["ES2022", "DOM"], paths: { hppproto: [`${repoRoot}dist/ts/index.d.ts`], "hppproto/generated": [`${repoRoot}dist/ts/generated.d.ts`] },
      },
      files: ["main.ts"],
    };
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify(config));
    const main = [
      `import { builder } from "hppproto"; import { Kind, Wide, WideBuilder, type Sub } from "${genDir}/wide_js/wide_pb.js";`,
      "const bytes = Wide.encode({ i64: 1n, kind: Kind.KIND_B, subs: [{ id: 2n }] });",
      // what encode() accepts for 64-bit fields, and decoding from any binary input
      "Wide.decode(Wide.encode({ i64: 5, u64: \"18446744073709551615\", packedI64: [1, 2n, \"3\"], byId: { \"1\": 2 } }).buffer);",
      "const i: bigint | undefined = Wide.decode(bytes).i64;",
      "const s: Sub = Wide.view(bytes).subs.get(0).$toObject();",
      "const b: WideBuilder = builder(Wide);",
      "b.asString = \"3\";",
      "export { i, s };",
    ];
    for (const compiler of [tsc, tsc7]) {
      writeFileSync(`${dir}/main.ts`, main.join("\n"));
      const ok = spawnSync(process.execPath, [compiler, "-p", dir], { encoding: "utf8" });
      expect(ok.stdout + ok.stderr).toBe("");
      // the declarations carry real types: a wrong one is caught
      writeFileSync(`${dir}/main.ts`, [...main, "export const wrong: string = Wide.decode(bytes).i64;"].join("\n"));
      const bad = spawnSync(process.execPath, [compiler, "-p", dir], { encoding: "utf8" });
      expect(bad.stdout).toMatch(/main\.ts\(9,14\): error TS2322: Type 'bigint \| undefined' is not assignable to type 'string'/);
    }
  });
});

describe("--import_extension", () => {
  /** A module importing wide.proto and a well-known type from a subfolder: imports of both kinds. */
  const generateInto = (ext: string) => {
    const dir = mkdtempSync(`${tmpdir()}/hppproto-ext-`);
    writeFileSync(`${dir}/top.proto`, 'syntax = "proto3";\nimport "wide.proto";\nimport "google/protobuf/timestamp.proto";\nmessage Top { wide.Wide w = 1; google.protobuf.Timestamp t = 2; }\n');
    execFileSync(process.execPath, [cli, "--out", `${dir}/gen`, "--import_extension", ext, "-I", `${repoRoot}test/protos`, "-I", dir, `${dir}/top.proto`]);
    return `${dir}/gen`;
  };
  const typecheck = (dir: string, options: object) => {
    writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({
      compilerOptions: { target: "ES2022", strict: true, noEmit: true, types: [], lib: ["ES2022", "DOM"], paths: { hppproto: [`${repoRoot}dist/ts/index.d.ts`], "hppproto/generated": [`${repoRoot}dist/ts/generated.d.ts`] }, ...options },
      include: ["**/*.ts"],
    }));
    const r = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8" });
    return r.stdout + r.stderr;
  };

  it("none: extensionless imports for bundlers, checked with moduleResolution Bundler and bundled by esbuild", async () => {
    const dir = generateInto("none");
    expect(readFileSync(`${dir}/top_pb.ts`, "utf8")).toMatch(/\nimport \* as \$dep0 from "\.\/wide_pb";\nimport \* as \$dep1 from "\.\/google\/protobuf\/timestamp_pb";\n/);
    expect(typecheck(dir, { module: "ESNext", moduleResolution: "Bundler" })).toBe("");
    const r = await build({
      stdin: { contents: 'import { Top } from "./top_pb"; console.log(Top.typeName);', resolveDir: dir, loader: "ts" },
      bundle: true, write: false, format: "esm", platform: "node", alias: { "hppproto/codec": `${repoRoot}dist/ts/codec.js`, hppproto: `${repoRoot}dist/ts/index.js`, "hppproto/generated": `${repoRoot}dist/ts/generated.js` }, logLevel: "silent",
    });
    writeFileSync(`${dir}/bundle.mjs`, r.outputFiles[0]!.text);
    expect(execFileSync(process.execPath, [`${dir}/bundle.mjs`], { encoding: "utf8" }).trim()).toBe("Top");
  });

  it("ts: .ts imports, checked with allowImportingTsExtensions; refused for --target js", () => {
    const dir = generateInto("ts");
    expect(readFileSync(`${dir}/top_pb.ts`, "utf8")).toMatch(/\nimport \* as \$dep0 from "\.\/wide_pb\.ts";\nimport \* as \$dep1 from "\.\/google\/protobuf\/timestamp_pb\.ts";\n/);
    expect(typecheck(dir, { module: "NodeNext", moduleResolution: "NodeNext", allowImportingTsExtensions: true })).toBe("");
    const r = spawnSync(process.execPath, [cli, "--out", dir, "--import_extension", "ts", "--target", "js", wideProto], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("JavaScript output cannot import .ts files");
  });
});

describe("option errors", () => {
  it.each([
    [["--int64", "long"], '--int64 takes bigint, string, number, not "long"'],
    [["--facades", "views,xml"], '--facades takes views, plain, builders, json, not "xml"'],
    [["--facades", "json"], "the json facade needs plain"],
    [["--target", "dts"], '--target takes ts, js, not "dts"'],
  ])("%j: exit 2 with the reason", (args, message) => {
    const r = spawnSync(process.execPath, [cli, "--out", mkdtempSync(`${tmpdir()}/hppproto-opt-`), ...args, wideProto], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
