#!/usr/bin/env node
import { generateResponse } from "../dist/codegen/plugin.js";

if (process.stdin.isTTY || process.argv.length > 2) {
  console.error("protoc-gen-hppproto is a protoc plugin: protoc --plugin=protoc-gen-hppproto=PATH --hppproto_out=DIR FILE.proto (see hppproto-gen --help)");
  process.exit(2);
}
// read as a stream: buf hands over a non-blocking pipe, where readFileSync(0) fails with EAGAIN
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
process.stdout.write(generateResponse(Buffer.concat(chunks)));
