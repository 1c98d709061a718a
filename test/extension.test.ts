// Extensions as values (ts/extension.ts): generated once per `extend` field, read and written on
// messages of the run that declared them (a field there) and of runs that did not know them (their
// wire bytes in $unknown).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { clearExtension, Extension, getExtension, hasExtension, init, setExtension } from "hppproto";
import { loadSchema } from "../dist/codegen/dynamic.js";
import * as conf2 from "./gen/conformance/google/protobuf/test_messages_proto2_pb.js";

beforeAll(async () => {
  await init();
});

describe("extensions", () => {
  const T = conf2.TestAllTypesProto2;

  it("are generated as values, and are fields of the messages of their own run", () => {
    const ext = conf2.extension_int32;
    expect(ext).toBeInstanceOf(Extension);
    expect([ext.typeName, ext.number, ext.extendee]).toEqual(["protobuf_test_messages.proto2.extension_int32", 120, T]);
    const m = T.create();
    expect([getExtension(m, ext), hasExtension(m, ext)]).toEqual([undefined, false]);
    setExtension(m, ext, 5);
    expect(m.extensionInt32).toBe(5); // the field's own property
    const bytes = T.encode(m);
    expect([getExtension(T.decode(bytes), ext), getExtension(T.view(bytes), ext), hasExtension(T.view(bytes), ext)]).toEqual([5, 5, true]);
    setExtension(m, conf2.groupfield, { groupInt32: 1 });
    expect(getExtension(T.decode(T.encode(m)), conf2.groupfield)).toEqual({ groupInt32: 1 });
    clearExtension(m, ext);
    expect([getExtension(m, ext), hasExtension(m, ext)]).toEqual([undefined, false]);
    const b = T.builder();
    setExtension(b as never, ext, 6); // a builder of the run: its setter
    expect(T.decode(T.encode(b)).extensionInt32).toBe(6);
    expect(() => setExtension(T.view(bytes) as never, ext, 1)).toThrow(TypeError); // but not a view: read-only (it has no setter)
  });

  it("on messages of a run that did not know them: read from and written to their unknown fields", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hppproto-ext-"));
    writeFileSync(path.join(dir, "base.proto"), 'syntax = "proto2";\npackage x;\nmessage Base { optional int32 id = 1; extensions 100 to 200; }\n');
    writeFileSync(path.join(dir, "more.proto"), 'syntax = "proto2";\npackage x;\nimport "base.proto";\nmessage Note { optional string text = 1; }\n' +
      "extend Base { optional int32 level = 100; repeated string tags = 101; optional Note note = 102; }\n");
    const alone = loadSchema([path.join(dir, "base.proto")], [dir]).types.get("x.Base")!; // knows no extension
    const withExt = loadSchema([path.join(dir, "more.proto")], [dir]).types;
    const Base = withExt.get("x.Base")!;
    const level = new Extension<Record<string, unknown>, number>(Base, 100);
    const tags = new Extension<Record<string, unknown>, string[]>(Base, 101);
    const note = new Extension<Record<string, unknown>, { text?: string }>(Base, 102);
    const m = alone.decode(Base.encode({ id: 1, level: 7, tags: ["a", "b"], note: { text: "n" } }));
    expect(Object.keys(m)).not.toContain("level");
    expect([getExtension(m, level), getExtension(m, tags), getExtension(m, note)]).toEqual([7, ["a", "b"], { text: "n" }]);
    expect([getExtension(alone.view(alone.encode(m)), level), hasExtension(m, tags)]).toEqual([7, true]);
    setExtension(m, level, 9); // replaces its bytes in $unknown
    setExtension(m, tags, ["c"]);
    expect(Base.decode(alone.encode(m))).toMatchObject({ id: 1, level: 9, tags: ["c"], note: { text: "n" } });
    clearExtension(m, note);
    clearExtension(m, level);
    expect(Base.decode(alone.encode(m))).toMatchObject({ id: 1, level: undefined, tags: ["c"], note: undefined });
    expect([hasExtension(m, level), getExtension(m, tags)]).toEqual([false, ["c"]]);
    expect(() => setExtension(m, level, "x" as never)).toThrow(/\[x\.level\]/);
    clearExtension(m, tags);
    expect(m.$unknown).toBeUndefined();
    expect(getExtension({}, tags)).toEqual([]); // absent: what an absent field reads as
    // other unknown fields stay as they were, groups whole; malformed bytes are a RangeError
    const group = [0xb3, 0x09, 0x08, 0x01, 0xb4, 0x09]; // field 150: a group holding field 1 = 1
    const g = { id: 2, $unknown: new Uint8Array(group) };
    setExtension(g, level, 3);
    expect(Array.from(g.$unknown)).toEqual([...group, 0xa0, 0x06, 0x03]);
    clearExtension(g, level);
    expect(Array.from(g.$unknown!)).toEqual(group);
    expect(() => setExtension({ $unknown: new Uint8Array([0x0a, 0x05, 0x61]) }, level, 1)).toThrow(RangeError);
    expect(() => setExtension({ $unknown: new Uint8Array([0xb3, 0x09, 0xbc, 0x09]) }, level, 1)).toThrow(/group end/);
  });
});
