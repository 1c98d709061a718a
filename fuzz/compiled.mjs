// The decoders compiled for a schema (codegen/wasm/decoder.ts) against the codec's table-driven
// decoder, on every message of the test schema sets (conformance and editions, unittest and its
// maps, the benchmark schemas): random wire bytes shaped by the schema and mutations of them, valid
// and not, one in four a length-delimited run of messages (test/support/wirecheck.mjs). Each input is decoded by both into an arena filled with a
// pattern first; the compiled decoder must build the same records byte for byte, or fail with the
// same Status (code, offset, detail, path), or hand the input back, the arena as it was either way. Prints inputs per outcome; exits 1 on the first difference (saved
// under build/fuzz/compiled/).
// Usage: node fuzz/compiled.mjs [SECONDS] [SEED]   (after npm run build)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { init } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { generate } from "../dist/codegen/cli.js";
import { randomSource } from "./random.mjs";
import { fuzzSets } from "./sets.mjs";
import { compiledDecoders, decoderChecker, fileSchemas, mutate, randomInput, randomRun } from "../test/support/wirecheck.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.argv[2] ?? 30);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const outDir = path.join(root, "build/fuzz/compiled");
const sets = fuzzSets(root);

await init();
const rt = runtime();
const checkers = [];
for (const [name, [protoPath, files]] of Object.entries(sets)) {
  const out = path.join(outDir, name);
  generate({ files: files.map((f) => path.join(protoPath, f)), out, protoPaths: [protoPath], target: "js" });
  for (const def of await fileSchemas(out)) {
    const decoders = compiledDecoders(rt, def);
    const indices = def.messages.map((_, i) => i).filter((i) => decoders[i] !== undefined);
    if (indices.length > 0) checkers.push({ name, def, indices, ...decoderChecker(rt, def, decoders) });
  }
}

const perSet = new Map();
for (const c of checkers) perSet.set(c.name, (perSet.get(c.name) ?? 0) + c.indices.length);
console.log(`seed ${seed}, ${seconds} s, ${[...perSet].map(([name, n]) => `${name}: ${n} messages`).join(", ")}`);
const r = randomSource(seed);
const counts = { same: 0, error: 0, fallback: 0, skipped: 0 };
const deadline = Date.now() + seconds * 1000;
let inputs = 0, runs = 0;
while (Date.now() < deadline) {
  for (let k = 0; k < 200; k++) {
    const c = r.pick(checkers);
    const index = r.pick(c.indices);
    // one message in four a length-delimited run of them
    const delimited = r.below(4) === 0;
    let bytes = delimited ? randomRun(c.def, index, r) : randomInput(c.def, index, r);
    if (r.rand() < 0.5) bytes = mutate(bytes, r);
    inputs++;
    if (delimited) runs++;
    try {
      counts[(delimited ? c.checkDelimited : c.check)(index, bytes, r.below(8))]++;
    } catch (e) {
      mkdirSync(outDir, { recursive: true });
      const file = path.join(outDir, `difference-${seed}.bin`);
      writeFileSync(file, bytes);
      console.error(`${c.name}: ${e.message}\ninput saved to ${file}`);
      process.exit(1);
    }
  }
}
console.log(`${inputs} inputs (${runs} of them length-delimited runs): ${counts.same} decoded the same by both, ${counts.error} refused with the same error, ${counts.fallback} handed back to the codec (arena untouched), ${counts.skipped} too large; 0 differences`);
