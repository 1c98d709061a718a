// A Node client: receives ticks as binary WebSocket frames and reads each through a view, zero-copy:
// one call into WASM per frame, then only the fields it reads are turned into JS values.
import WebSocket from "ws";
import { init } from "hppproto";
import { Tick } from "./gen/ticks_pb.js";

export interface ClientResult {
  messages: number;
  bytes: number;
  seconds: number;
  lastSequence: bigint;
  meanPrice: number;
  bestBidSum: number;
}

export async function receive(serverUrl: string, count: number): Promise<ClientResult> {
  await init();
  const socket = new WebSocket(`${serverUrl.replace(/^http/, "ws")}ticks?count=${count}`);
  socket.binaryType = "nodebuffer";
  let messages = 0;
  let bytes = 0;
  let priceSum = 0;
  let bestBidSum = 0;
  let lastSequence = -1n;
  let started = 0;
  return new Promise((resolve, reject) => {
    socket.on("message", (frame: Buffer) => {
      if (messages === 0) started = performance.now();
      const t = Tick.view(frame); // valid until the next view() on the default arena
      priceSum += t.price;
      bestBidSum += t.bids.get(0)?.price ?? 0;
      lastSequence = t.sequence;
      messages++;
      bytes += frame.length;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const seconds = (performance.now() - started) / 1000;
      resolve({ messages, bytes, seconds, lastSequence, meanPrice: priceSum / messages, bestBidSum });
    });
  });
}
