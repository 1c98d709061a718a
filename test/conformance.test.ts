// The conformance testee without protobuf's runner: the runner's protocol over a real child
// process, and requests like the runner's for the rules it checks (parse errors, categories,
// extensions, message sets, the unstable edition, skipped text format).
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./support/paths.js";
// @ts-expect-error: plain JavaScript, run by the runner as a program; it generates its schemas on import
import { answer, conformance } from "./conformance/testee.mjs";

const { ConformanceRequest, ConformanceResponse, WireFormat, TestCategory } = conformance;
const proto3 = "protobuf_test_messages.proto3.TestAllTypesProto3";
const proto2 = "protobuf_test_messages.proto2.TestAllTypesProto2";

type Result = { case: string; value: unknown } | undefined;
const ask = (request: Record<string, unknown>): Result => (answer(request) as { result: Result }).result;
const json = (messageType: string, payload: string, extra: Record<string, unknown> = {}) =>
  ask({ messageType, payload: { case: "jsonPayload", value: payload }, requestedOutputFormat: WireFormat.JSON, testCategory: TestCategory.JSON_TEST, ...extra });
const binary = (messageType: string, payload: Uint8Array, output = WireFormat.PROTOBUF) =>
  ask({ messageType, payload: { case: "protobufPayload", value: payload }, requestedOutputFormat: output, testCategory: TestCategory.BINARY_TEST });

describe("conformance testee", () => {
  it("speaks the runner's protocol: length-prefixed requests in, responses out, in order", () => {
    const frames = [
      ConformanceRequest.encode({ messageType: "conformance.FailureSet", requestedOutputFormat: WireFormat.PROTOBUF }),
      ConformanceRequest.encode({ messageType: proto3, payload: { case: "jsonPayload", value: '{"optionalInt32": 150}' }, requestedOutputFormat: WireFormat.PROTOBUF }),
    ];
    const input = Buffer.concat(frames.flatMap((f: Uint8Array) => {
      const len = Buffer.alloc(4);
      len.writeUInt32LE(f.length);
      return [len, Buffer.from(f)];
    }));
    const generated = () => statSync(`${repoRoot}test/conformance/gen/.generated`).mtimeMs;
    const before = generated();
    const r = spawnSync(process.execPath, [`${repoRoot}test/conformance/testee.mjs`], { input });
    expect(r.status).toBe(0);
    // the runner restarts the testee after every crash: it starts from the code already generated
    expect(generated()).toBe(before);
    const out = r.stdout;
    const responses = [];
    for (let p = 0; p < out.length;) {
      const n = out.readUInt32LE(p);
      responses.push(ConformanceResponse.decode(out.subarray(p + 4, p + 4 + n)));
      p += 4 + n;
    }
    expect(responses.map((x: { result: { case: string } }) => x.result.case)).toEqual(["protobufPayload", "protobufPayload"]);
    expect(responses[0].result.value).toEqual(new Uint8Array(0)); // an empty failure list
    expect(responses[1].result.value).toEqual(new Uint8Array([0x08, 0x96, 0x01]));
    expect(r.stderr.toString()).toContain("2 requests");
  });

  it("bad input is a parse error, never a runtime error", () => {
    expect(binary(proto3, new Uint8Array([0x72, 0x05]))?.case).toBe("parseError");
    expect(json(proto3, '{"optionalString": "\\uD800"}')?.case).toBe("parseError");
    expect(json(proto3, '{"optionalInt32": 1, "optionalInt32": 2}')?.case).toBe("parseError");
    expect(json(proto3, '{"unknownField": 1}')?.case).toBe("parseError");
    expect(json(proto3, '{"unknownField": 1}', { testCategory: TestCategory.JSON_IGNORE_UNKNOWN_PARSING_TEST })).toEqual({ case: "jsonPayload", value: "{}" });
  });

  it("extensions by their [full.name] in JSON, and checked like fields in binary", () => {
    const ext = "[protobuf_test_messages.proto2.extension_int32]";
    expect(json(proto2, `{"${ext}": 1}`)).toEqual({ case: "jsonPayload", value: `{"${ext}":1}` });
    // field 133, extension_string, with bytes that are not UTF-8 (editions verify them)
    const bad = binary("protobuf_test_messages.editions.TestAllTypesEdition2023", new Uint8Array([0xaa, 0x08, 0x04, 0xa0, 0xb0, 0xc0, 0xd0]));
    expect(bad?.case).toBe("parseError");
  });

  it("message sets: an item decodes into its extension and encodes back as an item", () => {
    // message_set_correct (500) { item { type_id 4135312, message { i (9): 99 } } }
    const item = [0x0b, 0x10, 0x90, 0xb3, 0xfc, 0x01, 0x1a, 0x02, 0x48, 0x63, 0x0c];
    const bytes = new Uint8Array([0xa2, 0x1f, item.length, ...item]);
    expect(binary(proto2, bytes)).toEqual({ case: "protobufPayload", value: bytes });
    const asJson = binary(proto2, bytes, WireFormat.JSON) as { value: string };
    expect(JSON.parse(asJson.value)).toEqual({
      messageSetCorrect: { "[protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrectExtension2.message_set_extension]": { i: 99 } },
    });
  });

  it("the unstable edition's messages, and the text format both ways", () => {
    const bytes = new Uint8Array([0x6a, 0x03, 0x66, 0x6f, 0x6f]); // optional_bytes (13): "foo"
    expect(binary("protobuf_test_messages.edition_unstable.TestAllTypesEditionUnstable", bytes)).toEqual({ case: "protobufPayload", value: bytes });
    const foo = new Uint8Array([0x7a, 0x03, 0x66, 0x6f, 0x6f]); // TestAllTypesProto3's optional_bytes (15): "foo"
    expect(binary(proto3, foo, WireFormat.TEXT_FORMAT)).toEqual({ case: "textPayload", value: 'optional_bytes: "foo"\n' });
    const text = (value: string) => ask({ messageType: proto3, payload: { case: "textPayload", value }, requestedOutputFormat: WireFormat.PROTOBUF });
    expect(text("optional_bytes: 'foo'")).toEqual({ case: "protobufPayload", value: foo });
    expect(text("optional_bytes: 1")?.case).toBe("parseError");
  });
});
