import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // tests use the built runtime, as generated code in a user's project would
    alias: { hppproto: fileURLToPath(new URL("./dist/ts/index.js", import.meta.url)) },
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/generate.ts"],
    testTimeout: 60_000,
  },
});
