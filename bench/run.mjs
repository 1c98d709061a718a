// `npm run bench [-- --smoke] [--runs=N] [dataset ...]`: every dataset and library in a Node process
// of its own (what one library allocates cannot change how V8 treats another's objects), the whole
// suite N times (default 3) so each ratio is a median with its range, taken within runs; results in
// bench/results/latest.json, then the README table and the chart are drawn from them.
// --smoke runs a few iterations of everything (CI uses it to show the suite still works) and
// writes bench/gen/smoke.json instead; a run of named datasets writes bench/gen/subset.json.
import { execFileSync } from "node:child_process";
import { cpus, totalmem, platform, release } from "node:os";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepare } from "./prepare.mjs";
import { report } from "./report.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const bundle = join(bench, "gen", "suite.node.mjs");
const wasm = join(root, "wasm", "dist", "hppproto.wasm");

const args = process.argv.slice(2);
if (args[0] === "--child") {
  const { runDataset } = await import(pathToFileURL(bundle).href);
  const rows = await runDataset(args[1], {
    wasm: readFileSync(wasm), library: args[2], smoke: args[3] === "smoke", log: (l) => process.stderr.write(l + "\n"),
  });
  process.stdout.write(JSON.stringify(rows));
} else {
  const smoke = args.includes("--smoke");
  const only = args.filter((a) => !a.startsWith("--"));
  const rounds = smoke ? 1 : Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
  await prepare();
  const { datasets, libraries, combineRuns } = await import(pathToFileURL(bundle).href);
  const runs = [];
  for (let round = 1; round <= rounds; round++) {
    const rows = [];
    for (const d of datasets) {
      if (only.length && !only.includes(d.name)) continue;
      for (const lib of libraries) {
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", d.name, lib, smoke ? "smoke" : ""], {
          encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20,
        });
        rows.push(...JSON.parse(out));
      }
    }
    runs.push(rows);
    console.log(`run ${round} of ${rounds} done`);
  }
  const rows = combineRuns(runs);
  const version = (name) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  const result = {
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, memory_gib: Math.round(totalmem() / 2 ** 30), os: `${platform()} ${release()}` },
    runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
    packages: Object.fromEntries(["protobufjs", "ts-proto", "@bufbuild/protobuf", "pbf", "tinybench"].map((n) => [n, version(n)])),
    rows,
  };
  // only a full run replaces the published results
  const file = smoke ? join(bench, "gen", "smoke.json") : only.length ? join(bench, "gen", "subset.json") : join(bench, "results", "latest.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(result, null, 1) + "\n");
  console.log(`${rows.length} results -> ${file}`);
  if (file.endsWith("latest.json")) await report();
}
