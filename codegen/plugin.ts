// protoc-gen-hppproto: hppproto-gen as a protoc (or buf) plugin. protoc parses the .proto files and
// hands them over as descriptors in a CodeGeneratorRequest on stdin; the modules go back in a
// CodeGeneratorResponse on stdout. It writes the modules of the files it is asked to generate and
// of the google/protobuf files they import (which protoc and buf never ask for), each the same as
// hppproto-gen's for those files: runs for other files (buf's per-directory strategy) compose.
import protobuf from "protobufjs";
import { Writer } from "../ts/writer.js";
import { UsageError, buildOutputs, parseOutputOption, type OutputOptions } from "./cli.js";
import type { FileDescriptorProto } from "./descriptor.js";
import { isBundledWellKnown } from "./load.js";
import { fileDescriptorOf } from "./descriptorset.js";


// google/protobuf/compiler/plugin.proto
const Request = { fileToGenerate: 1, parameter: 2, protoFile: 15 } as const;
const Response = { error: 1, supportedFeatures: 2, minimumEdition: 3, maximumEdition: 4, file: 15 } as const;
const File = { name: 1, content: 15 } as const;
const FEATURE_PROTO3_OPTIONAL = 1;
const FEATURE_SUPPORTS_EDITIONS = 2;
const EDITION_PROTO2 = 998;
const EDITION_2024 = 1001;

/** The request's parameter, the files to generate, and the descriptors of those and of their imports. */
function readRequest(bytes: Uint8Array): { parameter: string; toGenerate: Set<string>; files: FileDescriptorProto[] } {
  const r = protobuf.Reader.create(bytes);
  let parameter = "";
  const toGenerate = new Set<string>();
  const files: FileDescriptorProto[] = [];
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag >>> 3 === Request.fileToGenerate && (tag & 7) === 2) toGenerate.add(r.string());
    else if (tag >>> 3 === Request.parameter && (tag & 7) === 2) parameter = r.string();
    else if (tag >>> 3 === Request.protoFile && (tag & 7) === 2) {
      const file = fileDescriptorOf(r.bytes());
      // the well-known types protobufjs supplies have no comments in hppproto-gen (its copies have
      // none); leaving protoc's out too keeps both outputs the same
      if (isBundledWellKnown(file.name)) delete file.sourceCodeInfo;
      files.push(file);
    } else r.skipType(tag & 7);
  }
  return { parameter, toGenerate, files };
}

/** Parameters as protoc passes --hppproto_opt: key=value pairs separated by commas. */
export function parseParameter(parameter: string): OutputOptions {
  const opts: OutputOptions = {};
  for (const pair of parameter.split(",").filter((p) => p.trim() !== "")) {
    const eq = pair.indexOf("=");
    if (eq < 0) throw new UsageError(`option ${pair} needs a value (key=value)`);
    // lists inside one option use "+": facades=views+plain
    parseOutputOption(opts, `--${pair.slice(0, eq).trim()}`, pair.slice(eq + 1).trim().replaceAll("+", ","));
  }
  return opts;
}

export function generateResponse(request: Uint8Array): Uint8Array {
  const w = new Writer();
  w.uint64(Response.supportedFeatures, FEATURE_PROTO3_OPTIONAL | FEATURE_SUPPORTS_EDITIONS);
  w.int32(Response.minimumEdition, EDITION_PROTO2);
  w.int32(Response.maximumEdition, EDITION_2024);
  try {
    const { parameter, toGenerate, files } = readRequest(request);
    const opts = parseParameter(parameter);
    const only = new Set(files.map((f) => f.name).filter((name) => toGenerate.has(name) || name.startsWith("google/protobuf/")));
    for (const out of buildOutputs(files, opts, only).outputs) {
      w.fork(Response.file).string(File.name, out.name).string(File.content, out.content).join();
    }
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    w.string(Response.error, e.message);
  }
  return w.finish();
}
