// Builds the stream example as a project would: hppproto-gen from ticks.proto, then esbuild bundles
// the server and the client for Node (dist/) and the page for browsers (page/page.js, with the
// WASM inside: the "browser" entry of hppproto).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));

export async function build() {
  execFileSync(process.execPath, [`${here}../../bin/hppproto-gen.mjs`, "--out", `${here}gen`, "-I", here, `${here}ticks.proto`], { stdio: "inherit" });
  const common = { bundle: true, format: "esm", target: "es2022", logLevel: "warning" };
  await esbuild({
    ...common, platform: "node", entryPoints: [`${here}server.ts`, `${here}client.ts`], outdir: `${here}dist`,
    outExtension: { ".js": ".mjs" }, packages: "external",
  });
  await esbuild({ ...common, platform: "browser", minify: true, entryPoints: [`${here}page/page.ts`], outfile: `${here}page/page.js` });
  return { server: `${here}dist/server.mjs`, client: `${here}dist/client.mjs`, page: `${here}page` };
}
