// The examples run as a newcomer runs them, and the stream example's page works end to end in
// headless Chromium: binary WebSocket frames from the Node server, decoded with views in the page.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths.js";
import { openPage } from "../support/browser.js";

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: repoRoot, encoding: "utf8" });

describe("quick start", () => {
  it("generates, decodes, encodes and round-trips JSON", () => {
    const out = node(["examples/quickstart/run.mjs"]);
    expect(out).toContain("1: Ada Lovelace <ada@example.com>");
    expect(out).toContain("scores Float64Array[9.5, 8.25]");
    expect(out).toContain("builder bytes identical: true");
    expect(out).toContain("JSON round trip identical, and protobufjs reads it the same");
  });
});

describe("stream", () => {
  let server: { url: string; close(): Promise<void> };
  let built: { server: string; client: string; page: string };
  let tick: (sequence: number) => { symbol?: string | null; price?: number | null; bids?: readonly { price?: number | null }[] | null };

  beforeAll(async () => {
    const { build } = (await import("../../examples/stream/build.mjs")) as { build(): Promise<typeof built> };
    built = await build();
    const { startServer } = (await import(built.server)) as { startServer(page: string): Promise<typeof server> };
    server = await startServer(built.page);
    ({ tick } = (await import("../../examples/stream/feed.js")) as { tick: typeof tick });
  }, 60_000);
  afterAll(() => server?.close());

  it("type-checks under the repository's strict settings", () => {
    const r = spawnSync(process.execPath, [`${repoRoot}node_modules/typescript/bin/tsc`, "-p", `${repoRoot}examples/stream`], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("the Node client reads every frame through a view and reports throughput", async () => {
    const out = node(["examples/stream/run.mjs", "20000"]);
    expect(out).toMatch(/received 20,000 ticks \([\d.]+ MB\) in \d+ ms: [\d,]+ ticks\/s/);
    expect(out).toContain("last tick #19999");
    const { receive } = (await import(built.client)) as { receive(url: string, n: number): Promise<{ messages: number; lastSequence: bigint; bestBidSum: number }> };
    const r = await receive(server.url, 500);
    expect(r.messages).toBe(500);
    expect(r.lastSequence).toBe(499n);
    const expectedBids = Array.from({ length: 500 }, (_, i) => tick(i).bids![0]!.price!).reduce((a, b) => a + b, 0);
    expect(r.bestBidSum).toBeCloseTo(expectedBids, 9);
  });

  it("the browser page decodes the frames with views and shows them live", async () => {
    const count = 300;
    const errors: string[] = [];
    const shown = await openPage(`${server.url}?count=${count}&interval=2`, async (page) => {
      await page.waitForFunction(() => document.getElementById("status")?.textContent === "done", undefined, { timeout: 30_000 });
      const text = (id: string) => page.textContent(`#${id}`);
      const inked = await page.evaluate(() => {
        const canvas = document.getElementById("chart") as HTMLCanvasElement;
        const pixels = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) n++;
        return n;
      });
      mkdirSync(`${repoRoot}build/screenshots`, { recursive: true });
      await page.screenshot({ path: `${repoRoot}build/screenshots/stream-page.png` });
      return { count: await text("count"), sequence: await text("sequence"), symbol: await text("symbol"), price: await text("price"), book: await text("book"), inked };
    }, errors);
    const last = tick(count - 1);
    expect(errors).toEqual([]);
    expect(shown).toMatchObject({ count: String(count), sequence: String(count - 1), symbol: last.symbol, price: last.price!.toFixed(4) });
    expect(shown.book).toMatch(/^\d+\.\d{4} \/ \d+\.\d{4}$/);
    expect(shown.inked).toBeGreaterThan(300); // the price line is drawn from the Float64Array
  });
});

describe("rpc", () => {
  it("a grpc-js server streams ticks; the client reads them through views and reports throughput", () => {
    const out = node(["examples/rpc/run.mjs", "20000"]);
    expect(out).toContain("latest ETH-USD tick by a unary call");
    expect(out).toMatch(/received 20,000 ticks over gRPC in \d+ ms: [\d,]+ ticks\/s, one view per tick/);
    expect(out).toContain("last tick #19999");
  });

  it("type-checks under the repository's strict settings (handlers and client typed from the service)", () => {
    const r = spawnSync(process.execPath, [`${repoRoot}node_modules/typescript/bin/tsc`, "-p", `${repoRoot}examples/rpc`], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
