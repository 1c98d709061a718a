// A grpc-js server for the tick feed: hppproto/grpc-js's definition, handlers typed from it.
import * as grpc from "@grpc/grpc-js";
import { init, type Init } from "hppproto";
import { grpcServe, type GrpcImplementation } from "hppproto/grpc-js";
import { TickFeed } from "./gen/tickfeed_pb.js";
import { Side, type Tick } from "./gen/ticks_pb.js";

/** Tick number `sequence`: deterministic, so the client can check what it read. */
export function tick(sequence: number, symbol = "BTC-USD"): Init<Tick> {
  const price = 100 + 10 * Math.sin(sequence / 50);
  return {
    sequence: BigInt(sequence), symbol, price, quantity: 1 + (sequence % 100), side: sequence % 2 ? Side.SIDE_BUY : Side.SIDE_SELL,
    timestampNs: 1_700_000_000_000_000_000n + BigInt(sequence) * 1_000_000n,
    bids: [1, 2, 3].map((k) => ({ price: price - k / 100, quantity: 10 * k })),
    asks: [1, 2, 3].map((k) => ({ price: price + k / 100, quantity: 10 * k })),
  };
}

const feed: GrpcImplementation<typeof TickFeed> = {
  latest(call, done) {
    done(null, tick(0, call.request.symbol));
  },
  subscribe(call) {
    const { symbol, count } = call.request;
    let sequence = 0;
    const send = () => {
      while (sequence < count && !call.cancelled) {
        // write() says when grpc-js's buffer is full: wait for it to drain
        if (!call.write(tick(sequence++, symbol))) return void call.once("drain", send);
      }
      call.end();
    };
    send();
  },
};

export async function startFeed(): Promise<{ address: string; close(): void }> {
  await init();
  const server = new grpc.Server();
  server.addService(...grpcServe(TickFeed, feed));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  return { address: `127.0.0.1:${port}`, close: () => server.forceShutdown() };
}
