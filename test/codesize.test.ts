// optimize_for = CODE_SIZE: code with no per-field code, whose facades the runtime interprets from
// the schema. For random messages of every type it must behave exactly as the code generated for
// speed, and files of both kinds refer to each other's messages (the plugin: test/package).
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { init, MessageView, toJsonString, fromJsonString, builder } from "hppproto";
import { loadSet, randomObject, requiresItself, rng, type Loaded } from "./support/protos.js";
import { genDir, type SchemaSet } from "./support/paths.js";
import { expectSameBehaviour, readView } from "./support/same.js";

beforeAll(async () => {
  await init();
});

const samples = (loaded: Loaded, typeName: string, n: number) => {
  const model = loaded.models.get(typeName)!;
  const pbType = loaded.pbType(typeName);
  const r = rng(typeName.length * 104729 + 3);
  return { r, bytes: Array.from({ length: n }, () => pbType.encode(pbType.fromObject(randomObject(loaded, model, r))).finish()) };
};

describe.each([
  ["conformance_code_size", "conformance"],
  ["unittest_code_size", "unittest"],
  ["wide_code_size_string", "wide_string"],
  ["names_code_size", "names"],
  ["code_size_mixed", "code_size_mixed_speed"],
] as [SchemaSet, SchemaSet][])("%s against %s, generated for speed", (set, baseline) => {
  const loaded = loadSet(set);
  const speed = loadSet(baseline);
  const names = [...loaded.types.keys()].filter((n) => speed.types.has(n)).sort();

  it("has the message types", () => {
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBe(loaded.types.size);
  });

  it.each(names)("%s: same plain objects, views, builders, bytes and JSON", (typeName) => {
    if (requiresItself(loaded.models.get(typeName)!)) return;
    const { r, bytes } = samples(loaded, typeName, 8);
    expectSameBehaviour(speed.types.get(typeName) as never, loaded.types.get(typeName) as never, bytes, r);
  });
});

describe("a CODE_SIZE module", () => {
  const slow = readFileSync(`${genDir}/code_size_mixed/codesize_slow_pb.ts`, "utf8");
  const top = readFileSync(`${genDir}/code_size_mixed/codesize_top_pb.ts`, "utf8");

  it("holds types and one message type per message, no code per field; the files it serves reach its parts through the schema", () => {
    // (Shape holds 64-bit integers: its plain objects in each form, for decode()'s int64 option)
    expect(slow).toContain('export const Shape: $MessageType<Shape, ShapeView, ShapeBuilder, $Int64Forms<Shape<"string">, Shape<"number">, Shape<"bigint">>> = /* @__PURE__ */ $interpretedType($schema,');
    expect(slow).not.toMatch(/function |class /);
    expect(slow).toContain("export interface ShapeBuilder extends ShapeView {");
    expect(top).toMatch(/\(\$interpretedParts<\$dep0\.Shape, \$dep0\.ShapeView, \$dep0\.ShapeBuilder>\(\$dep0\.\$schema, \d+\)\.read\)/);
    // the generated JSON writer of a speed file writes a CODE_SIZE message the schema-driven way;
    // JSON is read by the codec, so no module carries a JSON reader
    expect(top).toMatch(/\bj\.bySchema\(\$dep0\.\$schema, \d+\)/);
    expect(slow).not.toMatch(/\$json/);
    expect(top + slow).not.toMatch(/fromJson/);
  });

  it("gives views and builders of the classes it declares, across files", async () => {
    const { Drawing } = await import(`${genDir}/code_size_mixed/codesize_top_pb.ts`);
    const b = builder(Drawing);
    const shape = b.mutableMain();
    shape.kind = 1;
    shape.addPoints().x = -3;
    shape.named = { a: { x: 1, y: 2 } };
    shape.id = 7n;
    shape.label = { case: "anchor", value: { x: 5 } };
    b.addShapes().weights = [1n, 2n];
    b.layers = { 4: { kind: 1 } };
    b.extra = { case: "overlay", value: { blob: new Uint8Array([1, 2]) } };
    const bytes = Drawing.encode(b);
    const v = Drawing.view(bytes);
    expect(v.main).toBeInstanceOf(MessageView);
    expect(v.main.constructor.name).toBe("ShapeView");
    expect(v.main.points.get(0).x).toBe(-3);
    expect(v.main.named.get("a").y).toBe(2);
    expect(v.main.$has("id")).toBe(true);
    expect(v.main.label.value.x).toBe(5);
    expect([...v.shapes.get(0).weights]).toEqual([1n, 2n]);
    expect(v.layers.get(4).kind).toBe(1);
    expect([...v.extra.value.blob]).toEqual([1, 2]);
    expect(readView(v)).toMatchObject({ main: { kind: 1, id: 7n } });
    const json = toJsonString(Drawing, v);
    expect(json).toBe('{"main":{"kind":"KIND_LINE","points":[{"x":-3}],"named":{"a":{"x":1,"y":2}},"id":"7","anchor":{"x":5}},' +
      '"shapes":[{"weights":["1","2"]}],"layers":{"4":{"kind":"KIND_LINE"}},"overlay":{"blob":"AQI="}}');
    expect(Drawing.encode(fromJsonString(Drawing, json))).toEqual(bytes);
    b.$release();
  });

  it("with --int64 number and --target js: runs, and its declarations type-check (see codegen.test)", async () => {
    const { Wide } = await import(`${genDir}/wide_code_size_number/wide_pb.js`);
    const loaded = loadSet("wide_number");
    const generated = loaded.types.get("wide.Wide")!;
    const wide = loadSet("wide").types.get("wide.Wide")!;
    // 64-bit values a number holds exactly
    const clamp = (v: unknown): unknown =>
      typeof v === "bigint" ? v % 2n ** 52n : Array.isArray(v) ? v.map(clamp) : v instanceof Uint8Array || v === null || typeof v !== "object" ? v
        : Object.fromEntries(Object.entries(v).map(([k, x]) => [/^-?\d{16,}$/.test(k) ? String(BigInt(k) % 2n ** 52n) : k, clamp(x)])); // 64-bit map keys too
    const { r, bytes } = samples(loaded, "wide.Wide", 20);
    expectSameBehaviour(generated as never, Wide, bytes.map((b) => wide.encode(clamp(wide.decode(b)) as never)), r);
  });
});
