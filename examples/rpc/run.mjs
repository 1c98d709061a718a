// The RPC example: a grpc-js server streaming ticks, a grpc-js client reading them through views.
// Prints throughput.
//   node examples/rpc/run.mjs [COUNT]      100,000 ticks by default
import { build } from "./build.mjs";

const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const { server: serverModule, client: clientModule } = await build();
const { startFeed } = await import(serverModule);
const { subscribe } = await import(clientModule);

const feed = await startFeed();
try {
  const r = await subscribe(feed.address, count);
  console.log(`latest ${r.latestSymbol} tick by a unary call`);
  console.log(`received ${r.ticks.toLocaleString("en")} ticks over gRPC in ${(r.seconds * 1000).toFixed(0)} ms: ` +
    `${Math.round(r.ticks / r.seconds).toLocaleString("en")} ticks/s, one view per tick`);
  console.log(`last tick #${r.lastSequence}; mean price ${r.meanPrice.toFixed(4)}`);
  if (r.ticks !== count || r.lastSequence !== BigInt(count - 1)) throw new Error(`expected ${count} ticks, got ${r.ticks}`);
} finally {
  feed.close();
}
