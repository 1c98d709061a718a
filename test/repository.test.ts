// The repository stands on its own: a clean clone tests itself with nothing beside it.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/paths.js";

const tracked = execFileSync("git", ["ls-files"], { cwd: repoRoot, encoding: "utf8" }).split("\n").filter(Boolean);
const code = tracked.filter((f) => /\.(ts|mjs|js|sh|json|cmake|txt)$|(^|\/)(CMakeLists\.txt|run)$/.test(f) && !f.startsWith("testdata/"));

describe("the repository", () => {
  it("reads no path outside its root", () => {
    const outside: string[] = [];
    for (const file of code) {
      const text = readFileSync(path.join(repoRoot, file), "utf8");
      if (/shared\/testdata|["']\.\.["'],\s*["']shared["']/.test(text)) outside.push(`${file}: names the shared folder beside the repository`);
      // every relative path literal, taken from the folder the file runs from, stays inside the root
      const runsFrom = /^(ts|codegen)\//.test(file) ? path.join("dist", path.dirname(file)) : path.dirname(file);
      for (const [, rel] of text.matchAll(/["'`]((?:\.\.\/)+[^"'`$]*)["'`]/g)) {
        const resolved = path.resolve(repoRoot, runsFrom, rel!);
        if (path.relative(repoRoot, resolved).startsWith("..")) outside.push(`${file}: ${rel}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it("carries the schemas and golden files its tests read", () => {
    for (const f of ["testdata/protos/google/protobuf/unittest.proto", "testdata/protos/conformance/conformance/conformance.proto",
      "testdata/golden/protobuf_unittest.TestAllTypes.binpb"]) {
      expect(tracked).toContain(f);
    }
  });

  it("npm test stops at once with one line naming the system packages it lacks", () => {
    const r = spawnSync("/bin/bash", ["test/prerequisites.sh", "unit"], { cwd: repoRoot, env: { PATH: "/nonexistent" }, encoding: "utf8" });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("apt-get install -y cmake ninja-build g++ emscripten");
    const ok = spawnSync("/bin/bash", ["test/prerequisites.sh", "unit"], { cwd: repoRoot, encoding: "utf8" });
    expect([ok.status, ok.stderr]).toEqual([0, ""]);
  });

  it("each program a test suite runs is one prerequisites.sh checks for that suite", () => {
    // "command:package" or "/file:package" entries
    const entries = (suite: string) => spawnSync("/bin/bash", ["-c", `source <(sed -n '/^unit=/,/^fuzz=/p' test/prerequisites.sh); printf '%s\\n' "\${${suite}[@]}"`],
      { cwd: repoRoot, encoding: "utf8" }).stdout.trim().split("\n");
    // the unit tests run protoc on files that import google/protobuf/descriptor.proto, which is
    // libprotobuf-dev's, a package --no-install-recommends leaves out
    expect(entries("unit")).toEqual(expect.arrayContaining(["protoc:protobuf-compiler", "/usr/include/google/protobuf/descriptor.proto:libprotobuf-dev"]));
    const listed = (suite: string) => entries(suite).map((entry) => entry.split(":")[0]);
    const unchecked: string[] = [];
    for (const [suite, files, also] of [["unit", /^test\/[^/]+\.ts$|^test\/support\//, []], ["package", /^test\/package\//, ["unit"]]] as const) {
      const have = new Set([...listed(suite), ...also.flatMap(listed), "node", "npm", "npx", "git"]);
      for (const file of tracked.filter((f) => files.test(f))) {
        for (const [, program] of readFileSync(path.join(repoRoot, file), "utf8").matchAll(/(?:spawnSync|execFileSync|spawn|execFile)\("([^"/]+)"/g)) {
          if (!have.has(program!)) unchecked.push(`${file}: ${program}`);
        }
      }
    }
    expect(unchecked).toEqual([]);
  });
});
