// Writes what bench/wasm/decode.cpp reads: the schema table of the benchmark's generated code, and
// the tick stream as length-delimited messages; prints the Tick message's index in the table.
// Usage: dump.mjs OUT_DIR WASM_FILE
import { readFileSync, writeFileSync } from "node:fs";
import { init } from "hppproto";
import { Tick } from "../gen/hppproto/tick_pb.js";
import { tick } from "../suite/content.js";

const [out, wasm] = process.argv.slice(2) as [string, string];
await init({ wasm: readFileSync(wasm) });
const ticks = Array.from({ length: 10_000 }, (_, i) => tick(i, (s) => BigInt(s)));
writeFileSync(`${out}/table.bin`, Tick.schemaDef.table);
writeFileSync(`${out}/frames.bin`, Tick.encodeDelimited(ticks as never));
console.log(Tick.index);
