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
