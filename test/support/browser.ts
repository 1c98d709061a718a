// Pages in headless Chromium (Debian's, driven by playwright-core): a static server on 127.0.0.1
// for a folder, a page opened on it, and the page handed to the test once its body has text.
import { createServer, type Server } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "playwright-core";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const types: Record<string, string> = {
  ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
  ".wasm": "application/wasm", ".json": "application/json", ".svg": "image/svg+xml",
};

/** Serves `dir` on 127.0.0.1 (index.html for "/"); resolves with the server and its base URL. */
export async function serveDir(dir: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const file = path.join(dir, decodeURIComponent((req.url ?? "/").split("?")[0]!));
    const target = existsSync(file) && statSync(file).isDirectory() ? path.join(file, "index.html") : file;
    if (!target.startsWith(dir) || !existsSync(target)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader("content-type", types[path.extname(target)] ?? "application/octet-stream");
    res.end(readFileSync(target));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address() as { port: number };
  return { server, base: `http://127.0.0.1:${address.port}/` };
}

/** Opens `url` in headless Chromium, waits for text in the body, and returns what `read` gets. */
export async function openPage<T>(url: string, read: (page: Page) => Promise<T>, errors: string[] = []): Promise<T> {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true });
  try {
    const page = await browser.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(url);
    await page.waitForFunction(() => (document.body?.textContent ?? "").trim() !== "", undefined, { timeout: 20_000 }).catch(() => {
      throw new Error(`the page showed nothing; errors: ${errors.join("; ") || "none"}`);
    });
    return await read(page);
  } finally {
    await browser.close();
  }
}

/** Serves `dir` and opens its index.html: `openPage` on a folder. */
export async function servePage<T>(dir: string, read: (page: Page) => Promise<T>): Promise<T> {
  const { server, base } = await serveDir(dir);
  try {
    return await openPage(base, read);
  } finally {
    server.close();
  }
}
