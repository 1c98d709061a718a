import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Two suites: "unit" (npm test) checks the codec, runtime and generator in this checkout;
// "package" (npm run test:package) checks the packed tarball, examples, the protoc plugin and
// bundlers end to end, which takes longer. CI runs both.
const shared = {
  // tests use the built runtime, as generated code in a user's project would
  alias: [
    { find: /^hppproto$/, replacement: fileURLToPath(new URL("./dist/ts/index.js", import.meta.url)) },
    { find: /^hppproto\/generated$/, replacement: fileURLToPath(new URL("./dist/ts/generated.js", import.meta.url)) },
  ],
};
export default defineConfig({
  test: {
    testTimeout: 60_000,
    projects: [
      { resolve: shared, test: { name: "unit", include: ["test/*.test.ts"], globalSetup: ["test/support/generate.ts"], testTimeout: 60_000 } },
      { resolve: shared, test: { name: "package", include: ["test/package/*.test.ts"], globalSetup: ["test/support/generate.ts"], testTimeout: 120_000 } },
    ],
  },
});
