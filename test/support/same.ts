// One message type against another for the same schema: what generated code does and what the
// schema-interpreted types (runtime schemas, CODE_SIZE code) do must agree, value for value.
import { expect } from "vitest";
import { JsonError, type AnyMessageType, builder, toJsonString, fromJsonString, create, fieldsOf } from "hppproto";
import { thrown } from "./thrown.js";

type AnyType = AnyMessageType;

/**
 * For messages of `generated`'s type (wire bytes from `samples`): `other` decodes, encodes, views,
 * builds and prints and reads ProtoJSON as `generated` does, or fails alike (code and path).
 */
export function expectSameBehaviour(generated: AnyType, other: AnyType, samples: Iterable<Uint8Array>, r: () => number): void {
  const runtime = other;
  // what an object reads through its prototype too (declared defaults), and what it owns (what it sets)
  const reads = (o: object) => ({ fields: Object.fromEntries(fieldsOf(generated).map((f) => [f.property, (o as Record<string, unknown>)[f.property]])), own: Object.keys(o).sort() });
  expect(reads(create(runtime))).toEqual(reads(create(generated)));
  for (const bytes of samples) {
    const plain = generated.decode(bytes);
    expect(runtime.decode(bytes)).toEqual(plain);
    expect(reads(runtime.decode(bytes))).toEqual(reads(plain));
    expect(runtime.encode(plain)).toEqual(generated.encode(plain));
    expect(runtime.encode(runtime.view(bytes))).toEqual(generated.encode(plain));
    expect(runtime.view(bytes).$toObject()).toEqual(plain);
    // views read every field as generated views do: sub-views, lists, maps, typed arrays, defaults
    expect(readView(runtime.view(bytes))).toEqual(readView(generated.view(bytes)));
    // builders set from the plain object's fields encode what generated builders encode
    const fromBuilder = (type: typeof generated) => {
      const b = builder(type) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(plain as Record<string, unknown>)) if (k !== "$unknown" && v !== undefined) b[k] = v;
      return type.encode(b as never);
    };
    expect(fromBuilder(runtime as never)).toEqual(fromBuilder(generated));
    let json: string | undefined;
    try {
      json = toJsonString(generated, plain);
    } catch (e) {
      // values JSON cannot hold (an Any of an unknown type, a timestamp out of range): the
      // schema-driven writer and the generated one fail alike, at the same path
      const [code, path] = thrown(() => toJsonString(runtime, plain), JsonError);
      expect(e).toMatchObject({ code, path });
      continue;
    }
    expect(toJsonString(runtime, plain)).toBe(json);
    expect(fromJsonString(runtime, json)).toEqual(fromJsonString(generated, json));
    // JSON the message cannot take, one field spoiled at a time (at the top or one level down),
    // and JSON it can (proto names, ignored unknown keys): the generated reader and the
    // schema-driven one agree on the result, or on the error's code and path
    const parsed: unknown = JSON.parse(json);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) continue; // well-known types written as scalars
    for (const [k, spoiled] of spoil(parsed as Record<string, unknown>, r)) {
      const text = JSON.stringify(spoiled);
      for (const opts of [{}, { ignoreUnknownFields: true }]) {
        let want: unknown;
        try {
          want = fromJsonString(runtime, text, opts);
        } catch (e) {
          const [code, path] = thrown(() => fromJsonString(generated, text, opts), (e as object).constructor as typeof JsonError);
          expect({ code, path }, `${k}: ${text}`).toMatchObject({ code: (e as JsonError).code, path: (e as JsonError).path });
          continue;
        }
        expect(fromJsonString(generated, text, opts), `${k}: ${text}`).toEqual(want);
      }
    }
  }
}

const spoilers: unknown[] = [null, "x", -1, 1.5, 2 ** 40, "9".repeat(30), true, [], [null], [1, "y"], {}, { "": 1 }, { bogus: [] }, "AQ==", "NaN", "1e3"];

/** Copies of a message's JSON object, each with one value replaced by something of another shape. */
function* spoil(obj: Record<string, unknown>, r: () => number): Generator<[string, Record<string, unknown>]> {
  const keys = Object.keys(obj);
  yield ["unknown key", { ...obj, notAField: 1 }];
  for (const k of keys.slice(0, 6)) {
    yield [k, { ...obj, [k]: spoilers[Math.floor(r() * spoilers.length)] }];
    const v = obj[k];
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner = Object.keys(v as object);
      if (inner.length > 0) yield [`${k}.${inner[0]}`, { ...obj, [k]: { ...(v as object), [inner[0]!]: spoilers[Math.floor(r() * spoilers.length)] } }];
    }
    if (Array.isArray(v) && v.length > 0) yield [`${k}[0]`, { ...obj, [k]: [spoilers[Math.floor(r() * spoilers.length)], ...v.slice(1)] }];
  }
}

/** Everything a view shows, read through its getters (the class's accessors), views within views included. */
export function readView(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<unknown>);
  if (Array.isArray(v)) return v.map(readView);
  if (v instanceof Map || (typeof (v as { entries?: unknown }).entries === "function" && "size" in v)) {
    return [...(v as Map<unknown, unknown>).entries()].map(([k, x]) => [k, readView(x)]);
  }
  if (typeof (v as { toArray?: unknown }).toArray === "function") return (v as { toArray(): unknown[] }).toArray().map(readView);
  if (!("$arena" in v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, readView(x)])); // a oneof case
  const out: Record<string, unknown> = {};
  for (let proto = Object.getPrototypeOf(v); proto && proto.constructor.name !== "MessageView"; proto = Object.getPrototypeOf(proto)) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) if (d.get && !k.startsWith("$") && !(k in out)) out[k] = readView((v as Record<string, unknown>)[k]);
  }
  return out;
}
