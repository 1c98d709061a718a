// protoc-gen-hppproto: run by protoc (Debian's protobuf-compiler) and by buf (editions included),
// it writes exactly what hppproto-gen writes for the same files and options; its errors reach
// the user through protoc.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { conformanceProtos, protos, repoRoot, schemaSets } from "../support/paths.js";
import { needProtoc } from "../support/protoc.js";
import { EDITION_2024, OPTION_IMPORT_2024 } from "../support/edition2024.js";
import { OPTIONS_ONLY, OPTIONS_USED } from "../support/optionsonly.js";

const plugin = `${repoRoot}bin/protoc-gen-hppproto.mjs`;
const cli = `${repoRoot}bin/hppproto-gen.mjs`;
const buf = `${repoRoot}node_modules/.bin/buf`;
const testProtos = `${repoRoot}test/protos`;
const scratch = () => mkdtempSync(`${tmpdir()}/hppproto-plugin-`);

/** Every file under dir, by relative path. */
function tree(dir: string, at = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(path.join(dir, at)).sort()) {
    const rel = path.join(at, name);
    if (statSync(path.join(dir, rel)).isDirectory()) for (const [k, v] of tree(dir, rel)) out.set(k, v);
    else out.set(rel, readFileSync(path.join(dir, rel), "utf8"));
  }
  return out;
}

function hppprotoGen(protoPath: string, files: readonly string[], flags: string[] = []): Map<string, string> {
  const out = scratch();
  execFileSync(process.execPath, [cli, "--out", out, "-I", protoPath, ...flags, ...files], { cwd: protoPath, stdio: "pipe" });
  return tree(out);
}

function viaProtoc(protoPath: string, files: readonly string[], opt = "") {
  needProtoc();
  const out = scratch();
  const args = [`--plugin=protoc-gen-hppproto=${plugin}`, `--hppproto_out=${out}`, `-I${protoPath}`, ...(opt ? [`--hppproto_opt=${opt}`] : []), ...files];
  const r = spawnSync("protoc", args, { cwd: protoPath, encoding: "utf8" });
  return { status: r.status, stderr: r.stderr, files: tree(out) };
}

function viaBuf(protoPath: string, files: readonly string[], strategy: "all" | "directory" = "all", opt: string[] = []) {
  const out = scratch();
  const template = { version: "v2", plugins: [{ local: plugin, out, strategy, opt }] };
  execFileSync(buf, ["generate", protoPath, "--template", JSON.stringify(template), ...files.flatMap((f) => ["--path", path.join(protoPath, f)])], { stdio: "pipe" });
  return tree(out);
}

function expectSameOutput(got: Map<string, string>, want: Map<string, string>) {
  expect([...got.keys()]).toEqual([...want.keys()]);
  for (const [name, content] of want) expect(got.get(name), name).toBe(content);
}

describe("protoc-gen-hppproto", () => {
  it("under protoc: optimize_for = CODE_SIZE from a file's descriptor, and optimize_for=code_size as an option, as hppproto-gen", () => {
    const files = ["codesize_base.proto", "codesize_slow.proto", "codesize_top.proto"];
    const r = viaProtoc(testProtos, files);
    expect(r.stderr).toBe("");
    expect(r.files.get("codesize_slow_pb.ts")).toContain("$interpretedType($schema");
    expectSameOutput(r.files, hppprotoGen(testProtos, files));
    const all = viaProtoc(testProtos, ["wide.proto"], "optimize_for=code_size");
    expectSameOutput(all.files, hppprotoGen(testProtos, ["wide.proto"], ["--optimize_for", "code_size"]));
  });

  it("under protoc: the same modules as hppproto-gen (jstype, json_name, 64-bit and bytes defaults, __proto__ names, comments from SourceCodeInfo, services)", () => {
    const files = ["wide.proto", "comments.proto", "rpc.proto", ...schemaSets.names.files];
    const r = viaProtoc(testProtos, files);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expectSameOutput(r.files, hppprotoGen(testProtos, files));
  });

  it("under protoc: custom options of every kind of declaration and of files, as hppproto-gen encodes them", () => {
    // protoc's descriptor.proto is newer than protobufjs's copy: only the modules of these files compare
    const files = schemaSets.custom_options.files;
    const r = viaProtoc(testProtos, files);
    expect(r.status).toBe(0);
    const want = hppprotoGen(testProtos, files);
    for (const name of ["custom_options_pb.ts", "custom_options_other_pb.ts"]) expect(r.files.get(name), name).toBe(want.get(name));
  });

  it("under protoc, with options: the same as hppproto-gen with the same flags", () => {
    const files = ["wide.proto"];
    const r = viaProtoc(testProtos, files, "target=js,int64=string,facades=views+plain,import_extension=none,runtime_import=@my/hppproto");
    expect(r.status).toBe(0);
    expect([...r.files.keys()]).toEqual(["wide_pb.d.ts", "wide_pb.js"]);
    expect(r.files.get("wide_pb.js")).toContain('from "@my/hppproto"');
    expectSameOutput(r.files, hppprotoGen(testProtos, files, ["--target", "js", "--int64", "string", "--facades", "views,plain", "--import_extension", "none", "--runtime_import", "@my/hppproto"]));
  });

  it("under buf: the conformance schemas, editions included, as hppproto-gen writes them", () => {
    const files = schemaSets.conformance.files;
    expectSameOutput(viaBuf(conformanceProtos, files), hppprotoGen(conformanceProtos, files));
  });

  it("under buf's default strategy (a run per directory): each run writes its directory's modules, which import the others' and work", () => {
    const dir = scratch();
    mkdirSync(path.join(dir, "d1"));
    mkdirSync(path.join(dir, "d2"));
    writeFileSync(path.join(dir, "d1/a.proto"), 'syntax = "proto2";\npackage a;\nimport "google/protobuf/timestamp.proto";\n' +
      "message A { optional int32 x = 1; optional google.protobuf.Timestamp at = 2; extensions 100 to 200; }\n");
    writeFileSync(path.join(dir, "d2/b.proto"), 'syntax = "proto2";\npackage b;\nimport "d1/a.proto";\nimport "google/protobuf/timestamp.proto";\n' +
      "message B { optional a.A a = 1; repeated a.A as = 2; optional google.protobuf.Timestamp at = 3; }\nextend a.A { optional string tag = 100; }\n");
    const files = ["d1/a.proto", "d2/b.proto"];
    const perDirectory = viaBuf(dir, files, "directory", ["target=js"]);
    expectSameOutput(perDirectory, hppprotoGen(dir, files, ["--target", "js"]));
    const out = scratch();
    for (const [name, text] of perDirectory) {
      mkdirSync(path.dirname(path.join(out, name)), { recursive: true });
      writeFileSync(path.join(out, name), text);
    }
    mkdirSync(path.join(out, "node_modules"));
    symlinkSync(repoRoot, path.join(out, "node_modules/hppproto"));
    const program = 'import { init, getExtension, setExtension, toJsonString } from "hppproto"; import { A } from "./d1/a_pb.js"; import { B, tag } from "./d2/b_pb.js"; await init(); ' +
      'const b = B.decode(B.encode({ a: setExtension({ x: 1, at: { seconds: 5n } }, tag, "t"), as: [{ x: 2 }], at: { nanos: 3 } })); ' +
      "console.log(b.a.x, b.a.at.seconds, getExtension(b.a, tag), b.as[0].x, b.at.nanos, A.decode(A.encode(b.a)).x, toJsonString(B, b));";
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: out, encoding: "utf8" });
    expect(r.stderr + r.stdout).toBe('1 5n t 2 3 1 {"a":{"x":1,"at":"1970-01-01T00:00:05Z"},"as":[{"x":2}],"at":"1970-01-01T00:00:00.000000003Z"}\n');
  });

  it("under buf: an edition 2024 file (export, local, import option) as hppproto-gen writes it", () => {
    const dir = scratch();
    writeFileSync(path.join(dir, "e.proto"), EDITION_2024);
    expectSameOutput(viaBuf(dir, ["e.proto"]), hppprotoGen(dir, ["e.proto"]));
  });

  it("under protoc: a file of custom options only gets its module, as hppproto-gen writes it", () => {
    const dir = scratch();
    writeFileSync(path.join(dir, "opt.proto"), OPTIONS_ONLY);
    writeFileSync(path.join(dir, "use.proto"), OPTIONS_USED);
    // protoc's descriptor.proto is newer than protobufjs's copy (more messages, which number use.proto's
    // after them): the module of the options compares
    const r = viaProtoc(dir, ["opt.proto", "use.proto"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.files.get("opt_pb.ts")).toContain("export const weights: $Extension<$dep0.MessageOptions, number[]>");
    expect(r.files.get("opt_pb.ts")).toBe(hppprotoGen(dir, ["opt.proto", "use.proto"]).get("opt_pb.ts"));
  });

  it("under buf: edition 2024 options used through import option, and the file declaring them, as hppproto-gen writes them", () => {
    const dir = scratch();
    for (const [name, text] of Object.entries(OPTION_IMPORT_2024)) writeFileSync(path.join(dir, name), text);
    // buf hands the plugin no file imported for its options only
    expectSameOutput(viaBuf(dir, ["use.proto"]), hppprotoGen(dir, ["use.proto"]));
    // the file of options only (buf's descriptor.proto is newer than protobufjs's copy: its module compares)
    const options = viaBuf(dir, ["opts.proto"]).get("opts_pb.ts");
    expect(options).toContain("export const value_weight: $Extension<$dep0.EnumValueOptions, bigint>");
    expect(options).toBe(hppprotoGen(dir, ["opts.proto"]).get("opts_pb.ts"));
  });

  it("under buf: protobuf's unittest schemas (groups, maps, extensions, defaults, json_name) as hppproto-gen writes them", () => {
    // unittest_well_known_types.proto is left out: buf's api.proto and type.proto are newer than
    // the copies protobufjs ships (they add `edition`), so those two modules differ by design
    const files = schemaSets.unittest.files.filter((f) => f !== "google/protobuf/unittest_well_known_types.proto");
    // and doc comments aside: protobufjs misses a comment before a declaration that spans lines
    // ("Defined in unittest_import_public.proto"), and drops a "*/" opening one; protoc has both
    const withoutDocs = (files: Map<string, string>) =>
      new Map([...files].map(([name, text]) => [name, text.split("\n").filter((l) => !/^\s*(\/\*\*.*|\*.*)$/.test(l)).join("\n")]));
    expectSameOutput(withoutDocs(viaBuf(protos, files)), withoutDocs(hppprotoGen(protos, files)));
  });

  it("bad options: protoc fails with the plugin's message and writes nothing", () => {
    for (const [opt, message] of [
      ["int64=long", '--int64 takes bigint, string, number, not "long"'],
      ["colour=blue", "unknown option colour"],
      ["target", "option target needs a value (key=value)"],
      ["facades=json", "the json facade needs plain"],
    ] as const) {
      const r = viaProtoc(testProtos, ["wide.proto"], opt);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(message);
      expect(r.files.size).toBe(0);
    }
  });
});
