// The browser side: the same ticks, decoded from each binary WebSocket frame with a view, rendered
// live; the price history is drawn straight from the Float64Array the view gives (no copy).
import { init } from "hppproto";
import { Side, Tick } from "../gen/ticks_pb.js";

const params = new URLSearchParams(location.search);
const count = Number(params.get("count") ?? 500);
const interval = Number(params.get("interval") ?? 20);
const $ = (id: string) => document.getElementById(id)!;
const chart = ($("chart") as HTMLCanvasElement).getContext("2d")!;

function draw(prices: Float64Array) {
  const { width, height } = chart.canvas;
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of prices) {
    lo = Math.min(lo, p);
    hi = Math.max(hi, p);
  }
  chart.clearRect(0, 0, width, height);
  chart.beginPath();
  prices.forEach((p, i) => {
    const x = (i / (prices.length - 1)) * width;
    const y = height - ((p - lo) / (hi - lo || 1)) * (height - 10) - 5;
    if (i === 0) chart.moveTo(x, y);
    else chart.lineTo(x, y);
  });
  chart.strokeStyle = "#0a6";
  chart.stroke();
}

await init();
const socket = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ticks?count=${count}&interval=${interval}`);
socket.binaryType = "arraybuffer";
let received = 0;
socket.onopen = () => ($("status").textContent = "live");
/** An enum's name by value: generated enums are const objects, name -> number. */
const sideName = (side: Side) => Object.entries(Side).find(([, n]) => n === side)?.[0] ?? String(side);

socket.onmessage = (event: MessageEvent<ArrayBuffer>) => {
  const t = Tick.view(event.data); // the ArrayBuffer as it arrives
  received++;
  $("count").textContent = String(received);
  $("sequence").textContent = String(t.sequence);
  $("symbol").textContent = t.symbol;
  $("price").textContent = t.price.toFixed(4);
  $("side").textContent = sideName(t.side);
  $("book").textContent = `${t.bids.get(0)!.price.toFixed(4)} / ${t.asks.get(0)!.price.toFixed(4)}`;
  draw(t.recentPrices); // a view over WASM memory, read before the next frame's view replaces it
};
socket.onclose = () => ($("status").textContent = received === count ? "done" : "closed early");
