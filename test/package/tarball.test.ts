// The package as a user gets it: `npm pack`, installed from the tarball into a fresh project with
// TypeScript, esbuild, Vite and webpack from the registry, then used every way the README promises (ESM,
// CommonJS, npx hppproto-gen, tsc --strict, esbuild, Vite and webpack browser bundles),
// each decoding the same payload that protobufjs encoded. Needs the network (or npm's cache).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { gzipSync } from "node:zlib";
import protobuf from "protobufjs";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { needProtoc } from "../support/protoc.js";
import { openPage, serveDir, servePage } from "../support/browser.js";

const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const node = (args: string[], cwd: string) => execFileSync(process.execPath, args, { cwd, encoding: "utf8" });
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: "utf8" });
const version = (pkg: string) => (JSON.parse(readFileSync(`${repoRoot}node_modules/${pkg}/package.json`, "utf8")) as { version: string }).version;

const proto = `${repoRoot}examples/quickstart/addressbook.proto`;
const root = protobuf.loadSync(proto);
const AddressBookPb = root.lookupType("tutorial.AddressBook");
const payload = AddressBookPb.encode(AddressBookPb.fromObject({
  people: [{ name: "Ada Lovelace", id: 1, phones: [{ number: "+44 20 7946 0000", type: 1 }], scores: [9.5, 8.25], counters: { logins: "12345678901234" } }],
})).finish();
// what every consumer below prints: the payload, decoded, as ProtoJSON
const expected = JSON.stringify(AddressBookPb.toObject(AddressBookPb.decode(payload), { longs: String, enums: String }));

// one program for every setting: no top-level await (CommonJS has none), output to the console and,
// in a browser, to the page
const main = `import { init, toJsonString, builder } from "hppproto";
import { AddressBook } from "./gen/addressbook_pb.js";

const payload = new Uint8Array([${Array.from(payload).join(",")}]);
init().then(() => {
  const book = AddressBook.view(payload);
  const text = toJsonString(AddressBook, book);
  console.log(text);
  if (typeof document !== "undefined") document.body.textContent = text;
});
`;

let project: string;
let tarball: string;
let packed: { filename: string; files: { path: string }[]; size: number; unpackedSize: number };

beforeAll(() => {
  const dir = mkdtempSync(`${tmpdir()}/hppproto-package-`);
  packed = (JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], repoRoot)) as (typeof packed)[])[0]!;
  tarball = `${dir}/${packed.filename}`;
  project = `${dir}/consumer`;
  mkdirSync(`${project}/src`, { recursive: true });
  writeFileSync(`${project}/package.json`, JSON.stringify({ name: "consumer", private: true, type: "module" }));
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, `typescript@${version("typescript")}`, `esbuild@${version("esbuild")}`, `vite@${version("vite")}`, `webpack@${version("webpack")}`], project);
  cpSync(proto, `${project}/addressbook.proto`);
  writeFileSync(`${project}/src/main.ts`, main);
}, 300_000);

describe("the npm package", () => {
  it("holds the runtime, the CLI, types, the WASM and the README, nothing else", () => {
    const paths = packed.files.map((f) => f.path).sort();
    for (const p of paths) expect(p).toMatch(/^(package\.json|README\.md|LICENSE|bin\/(hppproto-gen|protoc-gen-hppproto)\.mjs|dist\/(ts|codegen)\/.+\.(js|d\.ts)|wasm\/dist\/hppproto(-decode)?\.wasm)$/);
    for (const needed of ["dist/ts/rpc/grpc-js.js", "dist/ts/rpc/nice-grpc.js", "dist/ts/rpc/connect.js", "dist/ts/index.js", "dist/ts/index.d.ts", "dist/ts/generated.js", "dist/ts/generated.d.ts", "dist/ts/codec.js", "dist/ts/codec.browser.js", "dist/ts/wasm-inline.js", "dist/codegen/cli.js", "bin/protoc-gen-hppproto.mjs", "wasm/dist/hppproto.wasm", "dist/ts/decode.js", "dist/ts/decode.browser.js", "dist/ts/wasm-inline-decode.js", "wasm/dist/hppproto-decode.wasm", "README.md"]) {
      expect(paths).toContain(needed);
    }
    expect(paths).toContain("LICENSE");
    console.log(`npm pack: ${paths.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked`);
    // two WASM modules (the codec with its JSON reader and writer, and the decoder alone), each also
    // inlined for bundlers; 299 KB with the RPC adapters and custom options, 306 KB with file
    // options and extensions resolved through registries, 346 KB with the hostile-input round
    // (one descriptor validator, the linear .proto scanner, request arenas per call, read budgets,
    // field masks), 371 KB with the generator's WASM writer and the decoders it compiles per
    // generation run (dist/codegen/wasm, ts/compiled.ts), 384 KB with a schema per file linked to
    // the others (ts/schema.ts) and extension holders, 394 KB with compiled modules linked to each
    // other and the core module of their helpers (dist/ts/compiledcore.js, ts/compiledabi.ts), 406 KB
    // with the encoder of plain objects that generated code drives (ts/encoder.ts, ts/wirebuffer.ts,
    // codegen/emit/encode.ts), 413 KB with the runtime that starts without the codec (ts/heap.ts,
    // ts/codec*.ts) and the message functions in modules of their own, 421 KB with the encoder's
    // field writers as free functions and the codec's record encodes in fullruntime.ts, 426 KB with
    // the guards against lying arrays and re-entering getters (ts/input.ts, builders' setters) and
    // the type declarations stripped of internals, 445 KB with decode, view and encode as functions
    // of their own (ts/decodeplain.ts, ts/decodeview.ts, ts/encodeplain.ts) and the generated
    // decoders of plain objects (ts/reader.ts, codegen/emit/decode.ts), 454 KB with the limits kept
    // in JS and the codec's loading apart (ts/limits.ts, ts/instantiate.ts) and those decoders
    // reading groups, closed enums, required fields and declared defaults
    expect(packed.size).toBeLessThan(460_000);
  });

  it("metadata: a license, keywords, its package.json exported, no install-time build, no source map comments without maps", () => {
    const installed = `${project}/node_modules/hppproto`;
    const pkg = JSON.parse(readFileSync(`${installed}/package.json`, "utf8")) as Record<string, unknown>;
    expect(pkg).toMatchObject({ license: "MIT", keywords: expect.arrayContaining(["protobuf", "wasm"]) });
    expect(Object.keys(pkg.scripts as object)).not.toContain("prepare");
    expect(node(["--input-type=module", "-e", 'import { createRequire } from "node:module"; console.log(createRequire(import.meta.url)("hppproto/package.json").name)'], project).trim()).toBe("hppproto");
    for (const p of packed.files.map((f) => f.path).filter((f) => f.endsWith(".js"))) {
      expect(readFileSync(`${installed}/${p}`, "utf8"), p).not.toContain("sourceMappingURL");
    }
  });

  it("the RPC adapters: hppproto/nice-grpc needs no RPC library; hppproto/grpc-js and hppproto/connect name the optional peer they need", () => {
    const load = (spec: string) => spawnSync(process.execPath, ["--input-type=module", "-e", `const m = await import(${JSON.stringify(spec)}); console.log(Object.keys(m).join(","))`], { cwd: project, encoding: "utf8" });
    expect(load("hppproto/nice-grpc").stdout.trim()).toBe("niceGrpcServe,niceGrpcService");
    const grpc = load("hppproto/grpc-js");
    expect([grpc.status, grpc.stderr]).toEqual([1, expect.stringContaining("Cannot find package '@grpc/grpc-js'")]);
    const connect = load("hppproto/connect");
    expect([connect.status, connect.stderr]).toEqual([1, expect.stringMatching(/Cannot find package '@(bufbuild\/protobuf|connectrpc\/connect)'/)]);
  });

  it("npx hppproto-gen generates code that passes tsc --strict", () => {
    const r = spawnSync("npx", ["hppproto-gen", "--out", "src/gen", "addressbook.proto"], { cwd: project, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/hppproto-gen: 1 module, 3 messages in \d+ ms -> src\/gen/);
    writeFileSync(`${project}/tsconfig.json`, JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, outDir: "out", rootDir: "src", types: [], lib: ["ES2022", "DOM"] },
      include: ["src"],
    }));
    node(["node_modules/typescript/bin/tsc", "-p", "."], project);
  });

  it("ESM: Node runs the compiled program", () => {
    expect(node(["out/main.js"], project).trim()).toBe(expected);
  });

  it("CommonJS: the same program compiled to require() calls", () => {
    writeFileSync(`${project}/tsconfig.cjs.json`, JSON.stringify({
      extends: "./tsconfig.json", compilerOptions: { module: "CommonJS", moduleResolution: "Node10", outDir: "out-cjs" },
    }));
    node(["node_modules/typescript/bin/tsc", "-p", "tsconfig.cjs.json"], project);
    writeFileSync(`${project}/out-cjs/package.json`, JSON.stringify({ type: "commonjs" }));
    expect(readFileSync(`${project}/out-cjs/main.js`, "utf8")).toContain('require("hppproto")');
    expect(node(["out-cjs/main.js"], project).trim()).toBe(expected);
  });

  it("esbuild: a browser bundle runs in Chromium, with init() and with initSync(), without the codec and with it inside", async () => {
    execFileSync("node_modules/.bin/esbuild", ["src/main.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web/main.js", "--log-level=warning"], { cwd: project });
    writeFileSync(`${project}/web/index.html`, '<!doctype html><script type="module" src="main.js"></script>');
    expect(readdirSync(`${project}/web`).sort()).toEqual(["index.html", "main.js"]);
    expect(await servePage(`${project}/web`, (page) => page.textContent("body"))).toBe(expected);
    // initSync() without arguments, the codec wanted: the bundle's inlined module, inflated synchronously
    writeFileSync(`${project}/src/sync.ts`, 'import "hppproto/codec";\n' + main.replace("import { init, ", "import { initSync, fromJsonString, ").replace("init().then(() => {", "Promise.resolve(initSync()).then(() => { fromJsonString(AddressBook, \"{}\"); // (reading ProtoJSON throws without the codec)"));
    execFileSync("node_modules/.bin/esbuild", ["src/sync.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web-sync/main.js", "--log-level=warning"], { cwd: project });
    writeFileSync(`${project}/web-sync/index.html`, '<!doctype html><script type="module" src="main.js"></script>');
    expect(await servePage(`${project}/web-sync`, (page) => page.textContent("body"))).toBe(expected);
  });

  it("strings of every length to 100 bytes, ASCII and not, read back in Chromium as written (browsers build short ASCII strings in JS, longer ones through TextDecoder)", async () => {
    writeFileSync(`${project}/src/strings.ts`, `import { init } from "hppproto";
import { AddressBook } from "./gen/addressbook_pb.js";
init().then(() => {
  const names: string[] = [];
  for (let n = 0; n <= 100; n++) names.push("abcdefghij".repeat(11).slice(0, n), "é".repeat(n >> 1) + "x".repeat(n & 1), "a".repeat(Math.max(0, n - 1)) + "\u{1F600}");
  const bytes = AddressBook.encode({ people: names.map((name, id) => ({ name, id })) });
  const viewed = Array.from(AddressBook.view(bytes).people, (p) => p.name);
  const decoded = AddressBook.decode(bytes).people.map((p) => p.name);
  const wrong = names.filter((name, i) => viewed[i] !== name || decoded[i] !== name);
  document.body.textContent = wrong.length === 0 ? \`\${names.length} ok\` : JSON.stringify(wrong);
});
`);
    execFileSync("node_modules/.bin/esbuild", ["src/strings.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web-strings/main.js", "--log-level=warning"], { cwd: project });
    writeFileSync(`${project}/web-strings/index.html`, '<!doctype html><script type="module" src="main.js"></script>');
    expect(await servePage(`${project}/web-strings`, (page) => page.textContent("body"))).toBe("303 ok");
  });

  it("hppproto/codegen in a browser: message types from a FileDescriptorSet (protoc's) and from .proto sources, bundled by esbuild, run in Chromium", async () => {
    needProtoc();
    execFileSync("protoc", ["--include_imports", `--descriptor_set_out=${project}/addressbook.binpb`, "-I", project, `${project}/addressbook.proto`]);
    const set = readFileSync(`${project}/addressbook.binpb`);
    const sources = { "addressbook.proto": readFileSync(`${project}/addressbook.proto`, "utf8"), "bad.proto": 'syntax = "proto3";\nimport "missing.proto";\n' };
    writeFileSync(`${project}/src/descriptors.ts`, `import { init, toJsonString } from "hppproto";
import { schemaFromDescriptorSet, schemaFromSources } from "hppproto/codegen";
const set = new Uint8Array([${Array.from(set).join(",")}]);
const payload = new Uint8Array([${Array.from(payload).join(",")}]);
const sources = ${JSON.stringify(sources)};
init().then(() => {
  const fromSet = schemaFromDescriptorSet(set).types.get("tutorial.AddressBook")!;
  const fromSources = schemaFromSources(sources, ["addressbook.proto"]).types.get("tutorial.AddressBook")!;
  let error = "";
  try { schemaFromSources(sources, ["bad.proto"]); } catch (e) { error = (e as Error).message; }
  document.body.textContent = JSON.stringify([toJsonString(fromSet, fromSet.view(payload)), toJsonString(fromSources, fromSources.decode(payload)), error]);
});
`);
    execFileSync("node_modules/.bin/esbuild", ["src/descriptors.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web-descriptors/main.js", "--log-level=warning"], { cwd: project });
    writeFileSync(`${project}/web-descriptors/index.html`, '<!doctype html><script type="module" src="main.js"></script>');
    const shown = JSON.parse((await servePage(`${project}/web-descriptors`, (page) => page.textContent("body")))!);
    expect(shown).toEqual([expected, expected, 'bad.proto:2:8: import "missing.proto" is not among the sources']);
  });

  it("Vite: a production build, with no warning and no unused .wasm asset, runs in Chromium", async () => {
    writeFileSync(`${project}/index.html`, '<!doctype html><body></body><script type="module" src="/src/main.ts"></script>');
    const r = spawnSync(process.execPath, ["node_modules/vite/bin/vite.js", "build", "--logLevel", "warn"], { cwd: project, encoding: "utf8" });
    expect([r.status, r.stdout + r.stderr]).toEqual([0, ""]);
    expect(filesUnder(`${project}/dist`).filter((f) => f.endsWith(".wasm"))).toEqual([]);
    expect(await servePage(`${project}/dist`, (page) => page.textContent("body"))).toBe(expected);
  });

  it("webpack 5: a production bundle, with no warning and no unused .wasm asset, runs in Chromium", async () => {
    // the compiled ESM program of the tsc test above, bundled for the browser
    const build = `import webpack from "webpack";
webpack({ mode: "production", target: "web", entry: "./out/main.js", output: { path: process.cwd() + "/webpack-out", filename: "main.js" } }, (err, stats) => {
  if (err) throw err;
  const { warnings, errors, assets } = stats.toJson({ all: false, warnings: true, errors: true, assets: true });
  console.log(JSON.stringify({ warnings: warnings.map((w) => w.message), errors: errors.map((e) => e.message), assets: assets.map((a) => a.name) }));
});`;
    writeFileSync(`${project}/webpack-build.mjs`, build);
    const result = JSON.parse(node(["webpack-build.mjs"], project)) as { warnings: string[]; errors: string[]; assets: string[] };
    expect(result).toEqual({ warnings: [], errors: [], assets: ["main.js"] });
    writeFileSync(`${project}/webpack-out/index.html`, '<!doctype html><body></body><script src="main.js"></script>');
    expect(await servePage(`${project}/webpack-out`, (page) => page.textContent("body"))).toBe(expected);
  });

  it("CDN style: the unbundled ES modules fetch the WASM from next to themselves", async () => {
    // as from unpkg or jsDelivr: the package's own files over HTTP, an import map naming it
    writeFileSync(`${project}/cdn.html`, `<!doctype html><body></body>
<script type="importmap">{ "imports": { "hppproto": "/node_modules/hppproto/dist/ts/index.js", "hppproto/generated": "/node_modules/hppproto/dist/ts/generated.js" } }</script>
<script type="module" src="/out/main.js"></script>`);
    const { server, base } = await serveDir(project);
    const wasmRequests: string[] = [];
    server.on("request", (req) => req.url?.endsWith(".wasm") && wasmRequests.push(req.url));
    try {
      expect(await openPage(`${base}cdn.html`, (page) => page.textContent("body"))).toBe(expected);
    } finally {
      server.close();
    }
    expect(wasmRequests).toEqual(["/node_modules/hppproto/wasm/dist/hppproto.wasm"]);
  });

  it("--target js in a project without TypeScript: JavaScript and declarations that Node runs as they are", () => {
    const bare = `${project}/../bare`;
    mkdirSync(bare);
    writeFileSync(`${bare}/package.json`, JSON.stringify({ name: "bare", private: true, type: "module" }));
    npm(["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], bare);
    expect(existsSync(`${bare}/node_modules/typescript`)).toBe(false);
    cpSync(proto, `${bare}/addressbook.proto`);
    execFileSync("npx", ["hppproto-gen", "--target", "js", "--out", "js-gen", "addressbook.proto"], { cwd: bare, stdio: "pipe" });
    expect(readdirSync(`${bare}/js-gen`).sort()).toEqual(["addressbook_pb.d.ts", "addressbook_pb.js"]);
    const program = `import { initSync, toJsonString } from "hppproto"; import { AddressBook } from "./js-gen/addressbook_pb.js";
initSync(); console.log(toJsonString(AddressBook, AddressBook.decode(new Uint8Array([${Array.from(payload).join(",")}]))));`;
    writeFileSync(`${bare}/js-target.mjs`, program);
    expect(node(["js-target.mjs"], bare).trim()).toBe(expected);
  });

  it("protoc runs the installed protoc-gen-hppproto, with the same output as npx hppproto-gen", () => {
    needProtoc();
    mkdirSync(`${project}/protoc-gen`);
    execFileSync("protoc", ["--plugin=protoc-gen-hppproto=node_modules/.bin/protoc-gen-hppproto", "--hppproto_out=protoc-gen", "addressbook.proto"], { cwd: project, stdio: "pipe" });
    for (const f of ["addressbook_pb.ts"]) {
      expect(readFileSync(`${project}/protoc-gen/${f}`, "utf8")).toBe(readFileSync(`${project}/src/gen/${f}`, "utf8"));
    }
  });

  it("hppproto/decode: the decode-only module decodes in Node and in a browser bundle, a smaller one; plain objects, views and builders encode by generated code", async () => {
    const program = main.replace('from "hppproto"', 'from "hppproto/decode"').replace(
      "  const text = toJsonString(AddressBook, book);",
      `  const json = toJsonString(AddressBook, book); // (before another view() makes book stale)
  // plain objects are encoded by generated code, without the codec's encoder; views and builders read out first
  const same = (b: Uint8Array) => b.length === payload.length && b.every((x, i) => x === payload[i]);
  const encoded = [AddressBook.encode(AddressBook.decode(payload)), AddressBook.encode(AddressBook.view(payload)), AddressBook.encode(builder(AddressBook, payload))];
  const text = json + "\\n" + encoded.map(same).join(",");`,
    );
    writeFileSync(`${project}/src/decode.ts`, program);
    const refusal = "true,true,true";
    // Node: the installed package's decode-only module, read from wasm/dist
    execFileSync("node_modules/.bin/esbuild", ["src/decode.ts", "--bundle", "--format=esm", "--platform=node", "--packages=external", "--outfile=out-decode/main.mjs", "--log-level=warning"], { cwd: project });
    expect(node(["out-decode/main.mjs"], project).trim()).toBe(`${expected}\n${refusal}`);
    // a browser bundle: the decode-only module inlined, and the bundle smaller than with the whole codec
    execFileSync("node_modules/.bin/esbuild", ["src/decode.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web-decode/main.js", "--log-level=warning"], { cwd: project });
    writeFileSync(`${project}/web-decode/index.html`, '<!doctype html><script type="module" src="main.js"></script>');
    expect(await servePage(`${project}/web-decode`, (page) => page.textContent("body"))).toBe(`${expected}\n${refusal}`);
    const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
    // from "hppproto", the same program needs no codec at all (proto3, compiled decoders, JSON only
    // written): no module inlined, and smaller than with the decode-only one
    execFileSync("node_modules/.bin/esbuild", ["src/main.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web-none/main.js", "--log-level=warning"], { cwd: project });
    expect(readFileSync(`${project}/web-none/main.js`, "utf8")).not.toContain("DecompressionStream");
    expect(gzipped(`${project}/web-decode/main.js`) - gzipped(`${project}/web-none/main.js`)).toBeGreaterThan(8000);
    // with "hppproto/codec" imported, the whole codec: larger, with the runtime's encoding and JSON
    // calls into it (FullRuntime), which the decode-only bundle cannot make and does not carry
    writeFileSync(`${project}/src/whole.ts`, `import "hppproto/codec";\n${main}`);
    execFileSync("node_modules/.bin/esbuild", ["src/whole.ts", "--bundle", "--minify", "--format=esm", "--platform=browser", "--outfile=web-whole/main.js", "--log-level=warning"], { cwd: project });
    expect(gzipped(`${project}/web-whole/main.js`) - gzipped(`${project}/web-decode/main.js`)).toBeGreaterThan(3000);
    for (const message of ["messages nested too deep to write", "the codec refused the ProtoJSON names"]) {
      expect(readFileSync(`${project}/web-whole/main.js`, "utf8")).toContain(message);
      expect(readFileSync(`${project}/web-decode/main.js`, "utf8")).not.toContain(message);
      expect(readFileSync(`${project}/web-none/main.js`, "utf8")).not.toContain(message);
    }
  });

  it("initSync in Node, without arguments, from the installed package", () => {
    const program = `import { initSync, toJsonString } from "hppproto"; import { AddressBook } from "./out/gen/addressbook_pb.js";
initSync(); console.log(toJsonString(AddressBook, AddressBook.decode(new Uint8Array([${Array.from(payload).join(",")}]))));`;
    writeFileSync(`${project}/sync.mjs`, program);
    expect(node(["sync.mjs"], project).trim()).toBe(expected);
  });
});
