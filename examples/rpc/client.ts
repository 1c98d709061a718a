// A grpc-js client of the tick feed that reads the stream through views: one call into WASM per
// tick and one small view object, no plain object tree; each view is valid while the next 31 ticks arrive.
import * as grpc from "@grpc/grpc-js";
import { init } from "hppproto";
import { grpcClient } from "hppproto/grpc-js";
import { TickFeed } from "./gen/tickfeed_pb.js";

export interface FeedResult {
  latestSymbol: string;
  ticks: number;
  seconds: number;
  lastSequence: bigint;
  meanPrice: number;
  bestBidSum: number;
}

export async function subscribe(address: string, count: number): Promise<FeedResult> {
  await init();
  const client = grpcClient(TickFeed, address, grpc.credentials.createInsecure(), { receive: "view" });
  try {
    // a unary call: its response is a view too
    const latest = await new Promise<string>((resolve, reject) =>
      client.latest({ symbol: "ETH-USD" }, (e, t) => (e ? reject(e) : resolve(t!.symbol))));
    let ticks = 0, priceSum = 0, bestBidSum = 0, lastSequence = -1n;
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const call = client.subscribe({ symbol: "BTC-USD", count });
      call.on("data", (t) => {
        ticks++;
        priceSum += t.price;
        bestBidSum += t.bids.get(0).price;
        lastSequence = t.sequence;
      });
      call.on("error", reject);
      call.on("end", resolve);
    });
    return { latestSymbol: latest, ticks, seconds: (performance.now() - started) / 1000, lastSequence, meanPrice: priceSum / ticks, bestBidSum };
  } finally {
    client.close();
  }
}
