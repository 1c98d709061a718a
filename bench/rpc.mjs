// `npm run bench:rpc [-- --runs=N]`: the tick feed (bench/protos/tick_feed.proto) served and called
// through @grpc/grpc-js with hppproto/grpc-js's definition and with ts-proto's (outputServices=
// grpc-js), in one process, rounds alternating. Reports the time in each definition's serialize
// and deserialize functions for a unary round trip and per message of a 10,000-tick server stream
// (the work the libraries differ in), and the end-to-end times for context; medians and ranges of
// the rounds. Results in bench/results/rpc.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const out = join(bench, "gen", "rpc");
const bin = join(root, "node_modules", ".bin");

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "protos"), { recursive: true });
for (const f of ["tick.proto", "tick_feed.proto"]) cpSync(join(bench, "protos", f), join(out, "protos", f));
execFileSync(process.execPath, [join(root, "bin", "hppproto-gen.mjs"), "--out", join(out, "hppproto"), "-I", join(out, "protos"), join(out, "protos", "tick_feed.proto")], { stdio: "inherit" });
writeFileSync(join(out, "buf.gen.yaml"), [
  "version: v2",
  "plugins:",
  "  - local: protoc-gen-ts_proto",
  "    out: ts-proto",
  "    opt: [forceLong=bigint, esModuleInterop=true, importSuffix=.js, outputServices=grpc-js]",
  "",
].join("\n"));
execFileSync(join(bin, "buf"), ["generate", "protos", "--template", "buf.gen.yaml"], { cwd: out, stdio: "inherit", env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
await esbuild.build({
  entryPoints: [join(bench, "rpc", "run.ts")], bundle: true, format: "esm", platform: "node", target: "es2022",
  packages: "external", outfile: join(out, "run.mjs"), logLevel: "warning",
});
const rounds = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 5);
const { runRpc } = await import(pathToFileURL(join(out, "run.mjs")).href);
const result = await runRpc(rounds, (line) => console.log(line));
mkdirSync(join(bench, "results"), { recursive: true });
writeFileSync(join(bench, "results", "rpc.json"), JSON.stringify({ date: new Date().toISOString(), node: process.version, ...result }, null, 1) + "\n");
