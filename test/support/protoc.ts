// The tests compare with protoc: Debian's protobuf-compiler, plus libprotobuf-dev for the
// google/protobuf/*.proto files on its include path, which protobuf-compiler only recommends.
// test/prerequisites.sh installs both; without them these tests fail saying so.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";

let missing: string | undefined | null = null;

function findMissing(): string | undefined {
  if (spawnSync("protoc", ["--version"]).error) return "protoc not found: install Debian's protobuf-compiler";
  const dir = mkdtempSync(`${tmpdir()}/hppproto-protoc-`);
  try {
    writeFileSync(`${dir}/probe.proto`, 'syntax = "proto3";\nimport "google/protobuf/descriptor.proto";\n');
    const probe = spawnSync("protoc", [`-I${dir}`, "--descriptor_set_out=/dev/null", `${dir}/probe.proto`], { encoding: "utf8" });
    if (probe.status !== 0) return `protoc finds no google/protobuf/descriptor.proto (${probe.stderr.trim().split("\n")[0]}): install Debian's libprotobuf-dev`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
}

/** Throws, naming the Debian package to install, unless protoc and its include files are there. */
export function needProtoc(): void {
  if (missing === null) missing = findMissing();
  if (missing !== undefined) throw new Error(`${missing} (or run bash test/prerequisites.sh --install as root)`);
}
