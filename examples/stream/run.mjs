// The stream example: a WebSocket server pushing market-data ticks as binary frames, and a Node
// client reading each frame zero-copy through a view. Prints throughput.
//   node examples/stream/run.mjs [COUNT]      100,000 ticks by default
//   node examples/stream/run.mjs --serve      keeps the server up for the browser page
import { build } from "./build.mjs";

const serve = process.argv.includes("--serve");
const count = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const { server: serverModule, client: clientModule, page } = await build();
const { startServer } = await import(serverModule);
const { receive } = await import(clientModule);

const server = await startServer(page, serve ? 8080 : 0);
if (serve) {
  console.log(`open ${server.url}?count=2000&interval=20 for the live page (Ctrl-C stops)`);
} else {
  const r = await receive(server.url, count);
  const rate = Math.round(r.messages / r.seconds);
  console.log(`received ${r.messages.toLocaleString("en")} ticks (${(r.bytes / 1e6).toFixed(1)} MB) in ${(r.seconds * 1000).toFixed(0)} ms: ` +
    `${rate.toLocaleString("en")} ticks/s, ${(r.bytes / 1e6 / r.seconds).toFixed(1)} MB/s over the socket, one view per frame`);
  console.log(`last tick #${r.lastSequence}; mean price ${r.meanPrice.toFixed(4)}`);
  await server.close();
  if (r.messages !== count || r.lastSequence !== BigInt(count - 1)) throw new Error(`expected ${count} ticks, got ${r.messages}`);
}
