// The ticks the server sends: deterministic, so a client (or a test) can check what it decoded.
import type { Init } from "hppproto";
import { Side, type Tick } from "./gen/ticks_pb.js";

const symbols = ["BTC-USD", "ETH-USD", "SOL-USD", "EUR-USD"];

function price(sequence: number): number {
  return 100 + 10 * Math.sin(sequence / 50) + (sequence % 7) / 100;
}

export function tick(sequence: number): Init<Tick> {
  const p = price(sequence);
  const level = (k: number) => ({ price: p + (k < 3 ? -(k + 1) : k - 2) / 100, quantity: 10 * (k + 1) });
  return {
    sequence: BigInt(sequence),
    symbol: symbols[sequence % symbols.length]!,
    price: p,
    quantity: 1 + (sequence % 100),
    side: sequence % 2 ? Side.SIDE_BUY : Side.SIDE_SELL,
    timestampNs: 1_700_000_000_000_000_000n + BigInt(sequence) * 1_000_000n,
    bids: [0, 1, 2].map(level),
    asks: [3, 4, 5].map(level),
    recentPrices: Array.from({ length: 64 }, (_, i) => price(sequence - 63 + i)),
  };
}
