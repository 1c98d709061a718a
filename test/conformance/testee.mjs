#!/usr/bin/env node
// The conformance testee: speaks the protocol of protobuf's conformance_test_runner over
// stdin/stdout (each message a 4-byte little-endian length, then a ConformanceRequest or
// ConformanceResponse), answering binary, JSON and text-format requests with hppproto's generated
// code. JSPB is skipped. Run as `conformance_test_runner ... test/conformance/testee.mjs`;
// imported, it exports answer() for tests.
import { readSync, realpathSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DecodeError, EncodeError, JsonError, TextError, fromText, init, toText, toJsonString, fromJsonString, encodeFromJsonString, decodeToJsonString } from "hppproto";
import { prepare, genDir } from "./prepare.mjs";

prepare();
/** The runner's protocol messages (conformance.proto), generated like the test messages. */
export const conformance = await import(`${genDir}/conformance/conformance_pb.js`);
const messageModules = [
  "google/protobuf/test_messages_proto2_pb.js",
  "google/protobuf/test_messages_proto3_pb.js",
  "conformance/test_protos/test_messages_edition2023_pb.js",
  "conformance/test_protos/test_messages_edition_unstable_pb.js",
  "editions/golden/test_messages_proto2_editions_pb.js",
  "editions/golden/test_messages_proto3_editions_pb.js",
];
await init();

const types = new Map();
/**
 * With HPPPROTO_TESTEE_DECODE=functions, binary payloads are decoded by each message's generated
 * decodeX (its generated decoder of plain objects where it has one) instead of its type's decode().
 */
const functions = new Map();
for (const file of messageModules) {
  const mod = await import(`${genDir}/${file}`);
  for (const [key, v] of Object.entries(mod)) {
    if (v && typeof v === "object" && typeof v.typeName === "string") {
      types.set(v.typeName, v);
      const fn = mod[`decode${key.replace(/\$+$/, "")}`];
      if (process.env.HPPPROTO_TESTEE_DECODE === "functions" && typeof fn === "function") functions.set(v.typeName, fn);
    }
  }
}
const { ConformanceRequest, ConformanceResponse, FailureSet, WireFormat, TestCategory } = conformance;

/** Answers one request; every outcome is one case of ConformanceResponse.result. */
export function answer(request) {
  const result = (c, value) => ({ result: { case: c, value } });
  if (request.messageType === "conformance.FailureSet") return result("protobufPayload", FailureSet.encode({}));
  const type = types.get(request.messageType);
  if (type === undefined) return result("runtimeError", `unknown message type ${request.messageType}`);
  const payload = request.payload;
  const ignoreUnknownFields = request.testCategory === TestCategory.JSON_IGNORE_UNKNOWN_PARSING_TEST;
  // binary to JSON and JSON to binary: the transcoding paths, with no JS object in between
  try {
    if (payload?.case === "protobufPayload" && request.requestedOutputFormat === WireFormat.JSON) {
      return result("jsonPayload", decodeToJsonString(type, payload.value));
    }
    if (payload?.case === "jsonPayload" && request.requestedOutputFormat === WireFormat.PROTOBUF) {
      return result("protobufPayload", encodeFromJsonString(type, payload.value, { ignoreUnknownFields }));
    }
  } catch (e) {
    const fromBinary = payload.case === "protobufPayload";
    if (e instanceof DecodeError || (e instanceof JsonError && !fromBinary)) return result("parseError", e.message);
    if (e instanceof EncodeError || e instanceof JsonError) return result("serializeError", e.message);
    throw e;
  }
  let message;
  try {
    switch (payload?.case) {
      case "protobufPayload":
        message = functions.has(type.typeName) ? functions.get(type.typeName)(payload.value) : type.decode(payload.value);
        break;
      case "jsonPayload":
        message = fromJsonString(type, payload.value, { ignoreUnknownFields });
        break;
      case "textPayload":
        message = fromText(type, payload.value);
        break;
      default:
        return result("skipped", `${payload?.case ?? "no"} input`);
    }
  } catch (e) {
    if (e instanceof DecodeError || e instanceof JsonError || e instanceof TextError) return result("parseError", e.message);
    throw e;
  }
  try {
    switch (request.requestedOutputFormat) {
      case WireFormat.PROTOBUF:
        return result("protobufPayload", type.encode(message));
      case WireFormat.JSON:
        return result("jsonPayload", toJsonString(type, message));
      case WireFormat.TEXT_FORMAT:
        return result("textPayload", toText(type, message, { unknownFields: request.printUnknownFields }));
      default:
        return result("skipped", `output format ${WireFormat[request.requestedOutputFormat]}`);
    }
  } catch (e) {
    if (e instanceof EncodeError || e instanceof JsonError || e instanceof TextError) return result("serializeError", e.message);
    throw e;
  }
}

function readExactly(n) {
  const buf = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    let r;
    try {
      r = readSync(0, buf, got, n - got, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (r === 0) return got === 0 ? undefined : buf.subarray(0, got);
    got += r;
  }
  return buf;
}

function writeAll(bytes) {
  let done = 0;
  while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
}

function serve() {
  let count = 0;
  for (;;) {
    const head = readExactly(4);
    if (head === undefined) return count;
    if (head.length < 4) throw new Error("truncated length prefix");
    const len = new DataView(head.buffer, head.byteOffset).getUint32(0, true);
    const body = readExactly(len) ?? new Uint8Array(0);
    if (body.length < len) throw new Error("truncated request");
    let response;
    try {
      response = answer(ConformanceRequest.decode(body));
    } catch (e) {
      response = { result: { case: "runtimeError", value: String(e?.stack ?? e) } };
    }
    const out = ConformanceResponse.encode(response);
    const prefix = new Uint8Array(4);
    new DataView(prefix.buffer).setUint32(0, out.length, true);
    writeAll(prefix);
    writeAll(out);
    count++;
  }
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = serve();
  process.stderr.write(`hppproto testee: ${n} requests\n`);
}
