// Extensions as values (ts/extension.ts): generated once per `extend` field, read and written on
// messages of the run that declared them (a field there) and of runs that did not know them (their
// wire bytes in $unknown).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as es from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { clearExtension, DecodeError, Extension, fromText, getExtension, hasExtension, init, Registry, setExtension, toText, toJson, toJsonString, fromJsonString, decodeToJsonString, create, isFieldSet, builder } from "hppproto";
import { loadSchema } from "../dist/codegen/dynamic.js";
import * as conf2 from "./gen/conformance/google/protobuf/test_messages_proto2_pb.js";
import { repoRoot } from "./support/paths.js";
import { needProtoc } from "./support/protoc.js";

beforeAll(async () => {
  await init();
});

describe("extensions", () => {
  const T = conf2.TestAllTypesProto2;

  it("are generated as values, and are fields of the messages of their own run", () => {
    const ext = conf2.extension_int32;
    expect(ext).toBeInstanceOf(Extension);
    expect([ext.typeName, ext.number, ext.extendee]).toEqual(["protobuf_test_messages.proto2.extension_int32", 120, T]);
    const m = create(T);
    expect([getExtension(m, ext), hasExtension(m, ext)]).toEqual([undefined, false]);
    setExtension(m, ext, 5);
    expect(m.extensionInt32).toBe(5); // the field's own property
    const bytes = T.encode(m);
    expect([getExtension(T.decode(bytes), ext), getExtension(T.view(bytes), ext), hasExtension(T.view(bytes), ext)]).toEqual([5, 5, true]);
    setExtension(m, conf2.groupfield, { groupInt32: 1 });
    expect(getExtension(T.decode(T.encode(m)), conf2.groupfield)).toEqual({ groupInt32: 1 });
    clearExtension(m, ext);
    expect([getExtension(m, ext), hasExtension(m, ext)]).toEqual([undefined, false]);
    const b = builder(T);
    setExtension(b as never, ext, 6); // a builder of the run: its setter
    expect(T.decode(T.encode(b)).extensionInt32).toBe(6);
    expect(() => setExtension(T.view(bytes) as never, ext, 1)).toThrow(/a view is read-only/); // but not a view: read-only (it has no setter)
  });

  it("set on an object literal of their run: the field, whatever made the object", () => {
    const ext = conf2.extension_int32;
    const literal: conf2.TestAllTypesProto2 = { optionalInt32: 1 };
    setExtension(literal, ext, 42);
    expect(literal.extensionInt32).toBe(42);
    expect(literal.$unknown).toBeUndefined();
    expect([getExtension(literal, ext), hasExtension(literal, ext), isFieldSet(T, literal, "extensionInt32")]).toEqual([42, true, true]);
    expect(toJsonString(T, literal)).toBe('{"optionalInt32":1,"[protobuf_test_messages.proto2.extension_int32]":42}');
    literal.extensionInt32 = 5; // one value, not a field and a copy in $unknown
    expect(T.decode(T.encode(literal)).extensionInt32).toBe(5);
    clearExtension(literal, ext);
    expect(T.encode(literal)).toEqual(T.encode({ optionalInt32: 1 }));
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
    const g = { ...create(alone), id: 2, $unknown: new Uint8Array(group) } as Record<string, unknown> & { $unknown?: Uint8Array };
    setExtension(g, level, 3);
    expect(Array.from(g.$unknown)).toEqual([...group, 0xa0, 0x06, 0x03]);
    clearExtension(g, level);
    expect(Array.from(g.$unknown!)).toEqual(group);
    expect(() => setExtension({ ...create(alone), $unknown: new Uint8Array([0x0a, 0x05, 0x61]) }, level, 1)).toThrow(RangeError);
    expect(() => setExtension({ ...create(alone), $unknown: new Uint8Array([0xb3, 0x09, 0xbc, 0x09]) }, level, 1)).toThrow(/group end/);
    // a builder of the run without them: its record's unknown fields
    const b = builder(alone) as never as Record<string, unknown>;
    b.id = 4;
    setExtension(b, level, 11);
    setExtension(b, tags, ["t"]);
    setExtension(b, level, 12); // replaces
    expect([getExtension(b, level), getExtension(b, tags), hasExtension(b, note)]).toEqual([12, ["t"], false]);
    expect(Base.decode(alone.encode(b as never))).toMatchObject({ id: 4, level: 12, tags: ["t"] });
    clearExtension(b, level);
    clearExtension(b, tags);
    expect(alone.encode(b as never)).toEqual(alone.encode({ id: 4 }));
    expect(() => setExtension(alone.view(alone.encode({ id: 1 })), level, 1)).toThrow(/a view is read-only/);
  });

  it("with declared defaults: read while unset, as fields with them are, and set only when given", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hppproto-ext-default-"));
    writeFileSync(path.join(dir, "base.proto"), 'syntax = "proto2";\npackage x;\nmessage Base { optional int32 id = 1; extensions 100 to 200; }\n');
    writeFileSync(path.join(dir, "more.proto"), 'syntax = "proto2";\npackage x;\nimport "base.proto";\nextend Base { optional int32 level = 100 [default = 5]; }\n');
    const alone = loadSchema([path.join(dir, "base.proto")], [dir]).types.get("x.Base")!; // knows no extension
    const Base = loadSchema([path.join(dir, "more.proto")], [dir]).types.get("x.Base")!;
    const level = new Extension<Record<string, unknown>, number>(Base, 100);
    // on the run's plain objects, builders and views, and in the unknown fields of the other run's
    const view = Base.view(new Uint8Array(0)) as never as Record<string, unknown>;
    expect([getExtension(view, level), hasExtension(view, level)]).toEqual([5, false]);
    for (const [m, encode] of [[create(Base), Base], [create(alone), alone], [builder(Base), Base]] as [Record<string, unknown>, typeof Base][]) {
      expect([getExtension(m, level), hasExtension(m, level)]).toEqual([5, false]);
      setExtension(m, level, 5); // the default, set
      expect([getExtension(m, level), hasExtension(m, level), isFieldSet(Base, Base.decode(encode.encode(m)), "level")]).toEqual([5, true, true]);
      clearExtension(m, level);
      expect([getExtension(m, level), hasExtension(m, level), encode.encode(m).length]).toEqual([5, false, 0]);
    }
  });
});

describe("extensions a run does not know, resolved through a registry", () => {
  // run A knows Base and Holder; run B (more.proto) declares the extensions; Base has a required field
  const dir = mkdtempSync(path.join(tmpdir(), "hppproto-ext-registry-"));
  writeFileSync(path.join(dir, "base.proto"), 'syntax = "proto2";\npackage x;\n' +
    "message Base { required int32 id = 1; optional string name = 150; extensions 100 to 149; }\n" +
    "message Holder { optional Base base = 1; repeated Base list = 2; }\n");
  writeFileSync(path.join(dir, "more.proto"), 'syntax = "proto2";\npackage x;\nimport "base.proto";\n' +
    "message Note { required string text = 1; optional int64 big = 2; }\n" +
    "enum Mood { CALM = 0; GLAD = 1; }\n" +
    "extend Base { optional int32 level = 100; repeated string tags = 101; optional Note note = 102; optional Mood mood = 103; repeated sint64 nums = 104 [packed = true]; }\n");
  const A = loadSchema([path.join(dir, "base.proto")], [dir]).types;
  const more = loadSchema([path.join(dir, "more.proto")], [dir]);
  const B = more.types;
  const ext = <V>(n: number) => new Extension<Record<string, unknown>, V>(B.get("x.Base")!, n);
  const [level, tags, note, mood, nums] = [ext<number>(100), ext<string[]>(101), ext<{ text: string; big?: bigint }>(102), ext<number>(103), ext<bigint[]>(104)];
  const registry = new Registry(level, tags, note, mood, nums);
  // the same bytes for both runs: B's Holder does not exist (base.proto's is A's), so they are written by hand
  const base = (id: number, extra: Record<string, unknown>) => B.get("x.Base")!.encode({ id, name: `n${id}`, ...extra });
  const holderBytes = () => {
    const w = [base(1, { level: 7, tags: ["a", "b"], note: { text: "t", big: 2n ** 60n }, mood: 1, nums: [-1n, 5n] }), base(2, { level: -3 }), base(3, {})];
    const field = (n: number, b: Uint8Array) => [(n << 3) | 2, b.length, ...b];
    return new Uint8Array([...field(1, w[0]!), ...field(2, w[1]!), ...field(2, w[2]!)]);
  };
  const Holder = A.get("x.Holder")!;

  /** @bufbuild's registry of both files, from buf's descriptors. */
  const bufRegistry = () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), "hppproto-ext-buf-")), "set.binpb");
    execFileSync(`${repoRoot}node_modules/.bin/buf`, ["build", dir, "-o", out], { stdio: "pipe" });
    return es.createFileRegistry(es.fromBinary(FileDescriptorSetSchema, readFileSync(out)));
  };

  it("getExtension and setExtension on a message whose extendee has required fields the lone extension lacks", () => {
    const m = A.get("x.Base")!.decode(base(5, { level: 4 }));
    expect(getExtension(m, level)).toBe(4); // decoded alone by B's Base, whose id is required
    setExtension(m, note, { text: "x" });
    expect(B.get("x.Base")!.decode(A.get("x.Base")!.encode(m))).toMatchObject({ id: 5, level: 4, note: { text: "x" } });
    // only there: a message missing its required field is still an error, after a failed set too
    expect(() => setExtension(m, note, {} as never)).toThrow(/\[x\.note\]/); // Note's own required text
    expect(() => B.get("x.Base")!.decode(new Uint8Array([0xa0, 0x06, 0x01]))).toThrow(DecodeError);
    expect(() => B.get("x.Base")!.encode({ level: 1 })).toThrow(/required/);
  });

  it("ProtoJSON prints them at every depth as @bufbuild does with the same registry", () => {
    const bytes = holderBytes();
    const reg = bufRegistry();
    const schema = reg.getMessage("x.Holder")!;
    const theirs = es.toJson(schema, es.fromBinary(schema, bytes), { registry: reg });
    const m = Holder.decode(bytes);
    expect(toJson(Holder, m, { registry })).toEqual(theirs);
    expect(JSON.parse(toJsonString(Holder, Holder.view(bytes), { registry }))).toEqual(theirs);
    expect(JSON.parse(decodeToJsonString(Holder, bytes, { registry }))).toEqual(theirs);
    // a runtime schema's extensions (from descriptors) in a registry do the same
    expect([...more.extensions.keys()]).toEqual(["x.level", "x.tags", "x.note", "x.mood", "x.nums"]);
    expect(toJson(Holder, m, { registry: new Registry(more.extensions.values()) })).toEqual(theirs);
    expect(toJson(Holder, m, { registry: new Registry(registry) })).toEqual(theirs); // a registry's extensions come along
    expect(toJson(Holder, m, { registry, useProtoNames: true, enumsAsInts: true })).toEqual(es.toJson(schema, es.fromBinary(schema, bytes), { registry: reg, useProtoFieldName: true, enumAsInteger: true }));
    expect(toJson(Holder, m, { registry, emitDefaults: true })).toEqual(es.toJson(schema, es.fromBinary(schema, bytes), { registry: reg, alwaysEmitImplicit: true }));
    // without the registry (or with one of message types only) they stay unknown fields, left out
    expect(toJson(Holder, m)).toEqual(toJson(Holder, m, { registry: new Registry(Holder) }));
    expect(JSON.stringify(toJson(Holder, m))).not.toContain("[x.");
  });

  it("ProtoJSON reads them into $unknown, as decode() keeps them; unknown without the registry", () => {
    const bytes = holderBytes();
    const reg = bufRegistry();
    const schema = reg.getMessage("x.Holder")!;
    const text = es.toJsonString(schema, es.fromBinary(schema, bytes), { registry: reg });
    const m = fromJsonString(Holder, text, { registry });
    expect(toJson(Holder, m, { registry })).toEqual(JSON.parse(text));
    // the same wire fields as @bufbuild reads from the same JSON
    expect(es.equals(schema, es.fromBinary(schema, Holder.encode(m)), es.fromJsonString(schema, text, { registry: reg }), { registry: reg, extensions: true })).toBe(true);
    expect(getExtension((m as { base: Record<string, unknown> }).base, note)).toEqual({ text: "t", big: 2n ** 60n });
    expect(() => fromJsonString(Holder, text)).toThrow(/has no field "\[x\.level\]"/);
    expect(fromJsonString(Holder, text, { ignoreUnknownFields: true })).toEqual(Holder.decode(Holder.encode(fromJsonString(Holder, text, { registry: new Registry(), ignoreUnknownFields: true }))));
    // errors name the extension's path; an extension of another message is unknown here
    expect(() => fromJsonString(Holder, '{"base":{"id":1,"[x.level]":"x"}}', { registry })).toThrow(/x\.Holder\.base\.\[x\.level\]/);
    expect(() => fromJsonString(Holder, '{"base":{"id":1,"[x.note]":{}}}', { registry })).toThrow(/\[x\.note\]/); // Note's required text
    expect(() => fromJsonString(Holder, '{"[x.level]":1}', { registry })).toThrow(/UNKNOWN_FIELD/);
  });

  it("the text format prints them as protoc does and reads them back", () => {
    needProtoc();
    const bytes = holderBytes();
    const protoc = spawnSync("protoc", [`-I${dir}`, "--decode=x.Holder", "base.proto", "more.proto"], { cwd: dir, input: bytes, encoding: "utf8" });
    expect(protoc.status).toBe(0);
    const m = Holder.decode(bytes);
    expect(toText(Holder, m, { registry })).toBe(protoc.stdout);
    const read = fromText(Holder, protoc.stdout, { registry });
    expect(B.get("x.Base")!.decode(A.get("x.Base")!.encode((read as { base: never }).base))).toEqual(B.get("x.Base")!.decode(A.get("x.Base")!.encode((m as { base: never }).base)));
    expect(toText(Holder, read, { registry })).toBe(protoc.stdout);
    // repeated ones given one element at a time, or as a list
    const listed = fromText(Holder, "base { id: 1 [x.tags]: \"a\" [x.tags]: [\"b\", \"c\"] }", { registry });
    expect(getExtension((listed as { base: Record<string, unknown> }).base, tags)).toEqual(["a", "b", "c"]);
    // (joined once per message: each occurrence copied all those before it, quadratic in their count)
    const many = fromText(Holder, `base { id: 1 ${Array.from({ length: 3000 }, (_, i) => `[x.tags]: "t${i}"`).join(" ")} }`, { registry });
    expect(getExtension((many as { base: Record<string, unknown> }).base, tags)).toEqual(Array.from({ length: 3000 }, (_, i) => `t${i}`));
    expect(() => fromText(Holder, "base { id: 1 [x.level]: 1 [x.level]: 2 }", { registry })).toThrow(/more than once/);
    expect(() => fromText(Holder, "base { id: 1 [x.level]: 1 }")).toThrow(/no extension \[x\.level\]/);
    // unknownFields: what is not a registered extension, by number
    expect(toText(Holder, m, { registry: new Registry(level), unknownFields: true })).toContain("101: \"a\"");
    expect(toText(Holder, m, { registry: new Registry(level), unknownFields: true })).not.toContain("100: 7");
  });
});
