// What the benchmark messages hold. GoogleMessage1 carries the values of hpp-proto's benchmark
// `set_message`; the "big" variant inflates its four strings to 512 and 2048 bytes. Each library
// gets the content in the integer type it uses for 64-bit fields.
export type Int64 = (value: string) => unknown;

const field9 = "10)2uiSuoXL1^)v}icF@>P(j<t#~tz\\lg??S&(<hr7EVs'l{'5`Gohc_(=t eS s{_I?iCwaG]L'*Pu5(&w_:4{~Z";
const sub15 = "\"?6PY4]L2c<}~2;\\TVF_w^[@YfbIc*v/N+Z-oYuaWZr4C;5ib|*s@RCBbuvrQ3g(k,N";

const inflate = (s: string, n: number) => s.repeat(Math.ceil(n / s.length)).slice(0, n);

export interface Gm1Strings { field4: string; field9: string; field18: string; sub15: string }
export const gm1Strings: Gm1Strings = { field4: "3K+6)#", field9, field18: "{=Qwfe~#n{", sub15 };
export const gm1BigStrings: Gm1Strings = {
  field4: inflate("3K+6)#", 512),
  field9: inflate(field9, 2048),
  field18: inflate("{=Qwfe~#n{", 512),
  sub15: inflate(sub15, 2048),
};

/** A fresh GoogleMessage1 literal, as `set_message` fills it. */
export function gm1(s: Gm1Strings, int64: Int64) {
  return {
    field1: "",
    field2: 8,
    field3: 2066379,
    field4: s.field4,
    field9: s.field9,
    field12: true,
    field14: true,
    field15: { field1: 25, field2: 36, field15: s.sub15, field21: int64("2813090458170031956"), field22: 38, field23: true },
    field18: s.field18,
    field67: 1591432,
    field100: 31,
  };
}

const symbols = ["AAPL", "MSFT", "GOOGL", "AMZN", "NVDA", "TSLA", "BRK.B", "JPM"];

/** The i-th tick of the stream: a quote with three levels a side. */
export function tick(i: number, int64: Int64) {
  const mid = 100 + ((i * 7919) % 5000) / 100;
  const level = (k: number, sign: number) => ({ price: mid + sign * (k + 1) * 0.01, quantity: 100 * (k + 1) + (i % 13) });
  return {
    symbol: symbols[i % symbols.length]!,
    price: mid,
    quantity: 1 + ((i * 31) % 1000),
    side: 1 + (i % 2),
    timestampNs: int64(String(1_763_700_000_000_000_000n + BigInt(i) * 1_000_003n)),
    bids: [0, 1, 2].map((k) => level(k, -1)),
    asks: [0, 1, 2].map((k) => level(k, 1)),
  };
}

export const arrayLength = 1_000_000;
export const doubles = () => Float64Array.from({ length: arrayLength }, (_, i) => i * 0.25 - 1000.5);
// A spread of varint lengths: small, negative (10 bytes) and large values.
export const int32s = () => Int32Array.from({ length: arrayLength }, (_, i) => ((i * 2654435761) | 0) >> (i % 24));
export const uint64s = () => BigUint64Array.from({ length: arrayLength }, (_, i) => (BigInt(i) * 0x9e3779b97f4a7c15n) >> BigInt(i % 56) & 0xffffffffffffffffn);

/** A deterministic pseudo-random sequence (the content must be the same in every process). */
function sequence(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const zigzag = (v: number) => ((v << 1) ^ (v >> 31)) >>> 0;

/**
 * A vector tile: 4 layers of 120 features, each with 3 tag pairs and a geometry of MoveTo, LineTo
 * and ClosePath commands over zigzag deltas, as a map tile holds them (about 40 KB encoded).
 */
export function tile(int64: Int64) {
  const next = sequence(7);
  const layer = (name: string, type: number) => {
    const keys = ["class", "name", "rank", "oneway", "surface", "layer"];
    const values = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 0 ? { stringValue: `${name}-${i}` } : i % 3 === 1 ? { doubleValue: i * 1.25 } : { intValue: int64(String(i * 1000)) });
    const features = Array.from({ length: 120 }, (_, f) => {
      const points = 2 + next(30);
      const geometry = [(1 & 7) | (1 << 3), zigzag(next(4096)), zigzag(next(4096)), (2 & 7) | ((points - 1) << 3)];
      for (let i = 1; i < points; i++) geometry.push(zigzag(next(200) - 100), zigzag(next(200) - 100));
      if (type === 3) geometry.push(7 | (1 << 3));
      const tags = [next(keys.length), next(values.length), next(keys.length), next(values.length), next(keys.length), next(values.length)];
      return { id: int64(String(f + 1)), tags, type, geometry };
    });
    return { version: 2, name, features, keys, values, extent: 4096 };
  };
  return { layers: [layer("roads", 2), layer("buildings", 3), layer("water", 3), layer("poi", 1)] };
}

/**
 * Traces: one resource with 2 scopes of 100 spans, each with 8 attributes and an event
 * (about 60 KB encoded, most of it strings).
 */
export function traces(int64: Int64) {
  const next = sequence(11);
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => next(256));
  const attribute = (key: string, i: number) => ({
    key,
    value: i % 4 === 0 ? { stringValue: `value-${key}-${next(1000)}` } : i % 4 === 1 ? { intValue: int64(String(next(100000))) }
      : i % 4 === 2 ? { doubleValue: next(10000) / 8 } : { boolValue: true },
  });
  const keys = ["http.method", "http.route", "http.status_code", "net.peer.port", "db.system", "db.statement", "rpc.service", "user.id"];
  const start = 1_763_700_000_000_000_000n;
  const span = (i: number) => ({
    traceId: bytes(16),
    spanId: bytes(8),
    parentSpanId: bytes(8),
    name: `GET /api/v1/items/${i}`,
    kind: 2,
    startTimeUnixNano: int64(String(start + BigInt(i) * 1_000_000n)),
    endTimeUnixNano: int64(String(start + BigInt(i) * 1_000_000n + 250_000n)),
    attributes: keys.map((k, j) => attribute(k, j)),
    events: [{ timeUnixNano: int64(String(start + BigInt(i) * 1_000_000n + 1000n)), name: "cache miss", attributes: [attribute("cache.key", 0)] }],
    status: { message: i % 10 === 0 ? "deadline exceeded" : "", code: i % 10 === 0 ? 2 : 1 },
  });
  const scope = (name: string, from: number) => ({
    scope: { name, version: "1.4.0" },
    spans: Array.from({ length: 100 }, (_, i) => span(from + i)),
    schemaUrl: "https://opentelemetry.io/schemas/1.21.0",
  });
  return {
    resourceSpans: [{
      resource: { attributes: [attribute("service.name", 0), attribute("host.name", 0), attribute("process.pid", 1)] },
      scopeSpans: [scope("http-server", 0), scope("db-client", 100)],
      schemaUrl: "https://opentelemetry.io/schemas/1.21.0",
    }],
  };
}

const snakeNames = new Map<string, string>();
const snake = (key: string) => {
  let s = snakeNames.get(key);
  if (s === undefined) snakeNames.set(key, (s = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return s;
};

/**
 * A content literal with .proto field names (pbf's objects use them). pbf's set+encode rows pay
 * for this renaming on top of building the literal, so they are an upper bound of its time.
 */
export function protoNames(literal: unknown): unknown {
  if (Array.isArray(literal)) return literal.map(protoNames);
  if (literal === null || typeof literal !== "object" || literal instanceof Uint8Array) return literal;
  const out: Record<string, unknown> = {};
  for (const k in literal) out[snake(k)] = protoNames((literal as Record<string, unknown>)[k]);
  return out;
}
