// What test/protos/rpc.proto's Ticker service sends and computes, for the RPC tests' servers in
// every library: tick number `seq`, and Collect's summary of the ticks it received.
import type { Summary, Tick } from "../gen/rpc/rpc_pb.js";

export const tick = (seq: number, symbol = "ACME"): Tick => ({ symbol, price: seq / 4, seq: BigInt(seq), payload: new Uint8Array([seq & 0xff]) });

/** Collect's answer, built a tick at a time (`add`) and read once the stream ends (`summary`). */
export function summarizer(): { add(t: Tick): void; summary: Summary } {
  const summary = { count: 0, total: 0, symbols: [] as string[] };
  return {
    summary,
    add(t) {
      summary.count++;
      summary.total += t.price;
      if (!summary.symbols.includes(t.symbol)) summary.symbols.push(t.symbol);
    },
  };
}

/** Collect over an async iterable of ticks (nice-grpc and Connect-ES handlers). */
export async function summarize(ticks: AsyncIterable<Tick>): Promise<Summary> {
  const s = summarizer();
  for await (const t of ticks) s.add(t);
  return s.summary;
}

/** Echo's answer to a tick: the same tick, its seq doubled. */
export const echoed = (t: Tick): Tick => ({ ...t, seq: t.seq * 2n });
