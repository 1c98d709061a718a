// @bufbuild/protobuf as an independent implementation to check against: its registry of a schema
// set, from the FileDescriptorSet buf builds of the same files.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as es from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { repoRoot, schemaSets } from "./paths.js";

/** buf's FileDescriptorSet of a schema set (the files and their imports), as bytes. */
export function descriptorSetOf(set: keyof typeof schemaSets): Uint8Array {
  const { protoPath, files } = schemaSets[set];
  return bufBuild(protoPath, files);
}

/** buf's FileDescriptorSet of `files` in protoPath and their imports (default: every file there), as bytes. */
export function bufBuild(protoPath: string, files: readonly string[] = []): Uint8Array {
  const out = path.join(mkdtempSync(`${tmpdir()}/hppproto-buf-`), "set.binpb");
  execFileSync(`${repoRoot}node_modules/.bin/buf`, ["build", protoPath, "-o", out, ...files.flatMap((f) => ["--path", path.join(protoPath, f)])], { stdio: "pipe" });
  return readFileSync(out);
}

/** @bufbuild/protobuf's registry of a schema set. */
export function registryOf(set: keyof typeof schemaSets): es.FileRegistry {
  return es.createFileRegistry(es.fromBinary(FileDescriptorSetSchema, descriptorSetOf(set)));
}
