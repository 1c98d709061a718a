// `npm run bench:browser [-- --smoke] [dataset ...]`: the suite bundled for browsers, served on
// 127.0.0.1 and run in Debian's headless Chromium through playwright-core, one fresh page per
// dataset. Writes bench/results/browser.json and a screenshot of the results page (a run of named
// datasets: bench/gen/browser-subset.json).
import { createServer } from "node:http";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { prepare } from "./prepare.mjs";

const bench = dirname(fileURLToPath(import.meta.url));
const root = join(bench, "..");
const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const only = args.filter((a) => !a.startsWith("--"));
const rounds = smoke ? 1 : Number(args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);

await prepare();
const { datasets, combineRuns } = await import(pathToFileURL(join(bench, "gen", "suite.node.mjs")).href);

const files = {
  "/": ["text/html", join(bench, "page", "index.html")],
  "/suite.browser.js": ["text/javascript", join(bench, "gen", "suite.browser.js")],
  "/hppproto.wasm": ["application/wasm", join(root, "wasm", "dist", "hppproto.wasm")],
};
const runs = []; // rows of each run of the suite, each dataset in a fresh page
let rows = [];
let runtime = "";
const server = createServer((req, res) => {
  const path = req.url.split("?")[0];
  // cross-origin isolation: Chromium then gives performance.now() 5 µs resolution instead of 100 µs
  res.setHeader("cross-origin-opener-policy", "same-origin");
  res.setHeader("cross-origin-embedder-policy", "require-corp");
  if (req.method === "POST" && path === "/results") {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => { runs.at(-1).push(...JSON.parse(body)); res.end("ok"); });
  } else if (path === "/results.json") {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ runtime, rows }));
  } else if (files[path]) {
    res.setHeader("content-type", files[path][0]);
    res.end(readFileSync(files[path][1]));
  } else {
    res.statusCode = 404;
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
try {
  runtime = `Chromium ${browser.version()}`;
  for (let round = 1; round <= rounds; round++) {
    runs.push([]);
    for (const d of datasets) {
      if (only.length && !only.includes(d.name)) continue;
      const page = await browser.newPage();
      page.on("console", (m) => m.type() === "error" && console.error(m.text()));
      await page.goto(`${base}?dataset=${d.name}${smoke ? "&smoke" : ""}`);
      await page.waitForSelector("body[data-done]", { timeout: 15 * 60_000 });
      const state = await page.evaluate(() => [document.body.dataset.done, document.getElementById("status").textContent]);
      if (state[0] !== "ok") throw new Error(`${d.name} failed in Chromium: ${state[1]}`);
      console.log(`run ${round} of ${rounds}, ${d.name}: ${state[1]}`);
      await page.close();
    }
  }
  rows = combineRuns(runs);
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  await page.goto(base);
  await page.waitForSelector("body[data-done]");
  // only a full run replaces the published results (as bench/run.mjs): a smoke or subset run goes to bench/gen
  const published = !smoke && only.length === 0;
  const out = published ? join(bench, "results") : join(bench, "gen");
  const name = smoke ? "browser-smoke" : published ? "browser" : "browser-subset";
  mkdirSync(out, { recursive: true });
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  writeFileSync(join(out, `${name}.json`), JSON.stringify({ date: new Date().toISOString(), runtime, rows }, null, 1) + "\n");
  console.log(`${rows.length} results -> ${join(out, `${name}.json`)}`);
} finally {
  await browser.close();
  server.close();
}
