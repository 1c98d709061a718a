// Vitest global setup: generates TypeScript for every schema set the tests use.
import { rmSync } from "node:fs";
import { generate } from "../../dist/codegen/cli.js";
import { genDir, schemaSets } from "./paths.js";

export default function setup(): void {
  rmSync(genDir, { recursive: true, force: true });
  for (const [name, set] of Object.entries(schemaSets)) {
    const options = "options" in set ? set.options : {};
    generate({
      files: set.files.map((f) => `${set.protoPath}/${f}`),
      out: `${genDir}/${name}`,
      protoPaths: [set.protoPath],
      ...options,
      facades: "facades" in options ? new Set(options.facades) : undefined,
    });
  }
}
