// `npm run bench:wasm`: the decoder inside WASM, without JS around it, against a decoder written by
// hand for the tick message (bench/wasm/decode.cpp), built with Debian's Emscripten as the shipped
// module is (-O3, bulk memory) and run under Node.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { prepare } from "./prepare.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const out = join(bench, "gen", "wasm");
mkdirSync(out, { recursive: true });
await prepare();
await esbuild.build({
  entryPoints: [join(bench, "wasm", "dump.ts")], bundle: true, platform: "node", format: "esm",
  outfile: join(out, "dump.mjs"), external: ["node:*"], logLevel: "warning",
});
const tickIndex = execFileSync(process.execPath, [join(out, "dump.mjs"), out, join(root, "wasm", "dist", "hppproto.wasm")], { encoding: "utf8" }).trim();
execFileSync("em++", [
  "-O3", "-mbulk-memory", "-std=c++20", "-fno-exceptions", `-I${join(root, "cpp", "include")}`, join(bench, "wasm", "decode.cpp"),
  "-sNODERAWFS=1", "-sALLOW_MEMORY_GROWTH=1", "-sWASM_ASYNC_COMPILATION=0", "-sENVIRONMENT=node",
  "-sBINARYEN_EXTRA_PASSES=--one-caller-inline-max-function-size=100", "-o", join(out, "decode.cjs"),
], { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, NODE_PATH: "/usr/share/nodejs" } });
execFileSync(process.execPath, [join(out, "decode.cjs"), join(out, "table.bin"), join(out, "frames.bin"), tickIndex], { stdio: "inherit" });
