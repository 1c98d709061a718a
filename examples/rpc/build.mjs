// Builds the RPC example as a project would: hppproto-gen from tickfeed.proto (which imports the
// stream example's ticks.proto), then esbuild bundles the server and the client for Node.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build as esbuild } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));

export async function build() {
  execFileSync(process.execPath, [`${here}../../bin/hppproto-gen.mjs`, "--out", `${here}gen`, "-I", here, "-I", `${here}../stream`, `${here}tickfeed.proto`], { stdio: "inherit" });
  await esbuild({
    bundle: true, format: "esm", target: "es2022", logLevel: "warning", platform: "node", packages: "external",
    entryPoints: [`${here}server.ts`, `${here}client.ts`], outdir: `${here}dist`, outExtension: { ".js": ".mjs" },
  });
  return { server: `${here}dist/server.mjs`, client: `${here}dist/client.mjs` };
}
