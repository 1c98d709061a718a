// Turns result rows into what people read: the comparison table (markdown for the README, HTML for
// the browser page) and an SVG chart of hppproto's speed relative to the fastest other library.
import type { Row } from "./index.js";
import { median } from "./runs.js";

/** hppproto's operation, the peers' operation it is measured against, and what to call the pair. */
const comparisons: [hpp: string, peers: string, label: string][] = [
  ["view", "decode", "view decode (peers: decode)"],
  ["view+read", "decode+read", "view + read every field (peers: decode + read)"],
  ["decode", "decode", "decode to plain objects"],
  ["decodeX", "decode", "decode to plain objects by decodeX() (generated decoder, no WASM)"],
  ["decode+read", "decode+read", "decode to plain objects + read every field"],
  ["view+sum", "decode+sum", "view + sum (peers: decode + sum)"],
  ["encode", "encode", "encode a built message"],
  ["set+encode", "set+encode", "set from scratch + encode"],
  ["json out", "json out", "JSON out"],
  ["json in", "json in", "JSON in"],
  ["json to binary", "json to binary", "JSON to binary (peers: JSON in + encode)"],
  ["binary to json", "binary to json", "binary to JSON (peers: decode + JSON out)"],
  ["frames view+read", "frames decode+read", "one message per frame, view + read every field"],
  ["frames decode", "frames decode", "one message per frame, plain objects"],
  ["frames decodeX", "frames decode", "one message per frame, plain objects by decodeX()"],
  ["frames decode+read", "frames decode+read", "one message per frame, plain objects, read every field"],
  ["frames encode", "frames encode", "one message per frame, encode a built message"],
  ["frames set+encode", "frames set+encode", "one message per frame, set from scratch + encode"],
  ["batch view+read", "batch decode+read", "one delimited batch, views, read every field"],
  ["batch decode+read", "batch decode+read", "one delimited batch, plain objects, read every field"],
];

export const peers = ["protobufjs", "ts-proto", "protobuf-es", "pbf"] as const;

export interface Line {
  dataset: string;
  label: string;
  hpp?: Row;
  /** the same operation by code generated with optimize_for = CODE_SIZE */
  codeSize?: Row;
  peer: Partial<Record<(typeof peers)[number], Row>>;
  fastestPeer?: Row;
  floor?: Row;
  /** fastest peer time / hppproto time: above 1 means hppproto is faster (median of the runs' ratios) */
  speedup?: number;
  /** lowest and highest of the runs' ratios, each taken within one run */
  range?: [number, number];
}

export function lines(rows: Row[]): Line[] {
  const out: Line[] = [];
  const datasets = [...new Set(rows.map((r) => r.dataset))];
  for (const dataset of datasets) {
    const of = (lib: string, op: string) => rows.find((r) => r.dataset === dataset && r.library === lib && r.operation === op);
    for (const [hppOp, peerOp, label] of comparisons) {
      const hpp = of("hppproto", hppOp);
      const codeSize = of("hppproto-code-size", hppOp);
      const peer: Line["peer"] = {};
      for (const p of peers) {
        const r = of(p, peerOp);
        if (r) peer[p] = r;
      }
      const measured = Object.values(peer);
      if (!hpp && measured.length === 0) continue;
      const fastestPeer = measured.sort((a, b) => a.mean_ns - b.mean_ns)[0];
      const line: Line = { dataset, label, peer, floor: hppOp === "view" ? of("floor", "memcpy") : undefined };
      if (hpp) line.hpp = hpp;
      if (codeSize) line.codeSize = codeSize;
      if (fastestPeer) line.fastestPeer = fastestPeer;
      if (hpp && fastestPeer && hpp.mean_ns > 0) {
        const perRun = ratios(hpp, measured);
        line.speedup = perRun ? median(perRun) : fastestPeer.mean_ns / hpp.mean_ns;
        if (perRun) line.range = [Math.min(...perRun), Math.max(...perRun)];
      }
      out.push(line);
    }
  }
  return out;
}

/** Each run's ratio of its fastest peer to hppproto, or undefined without per-run times. */
function ratios(hpp: Row, peers: Row[]): number[] | undefined {
  const n = hpp.runs_ns?.length ?? 0;
  if (n < 2 || peers.some((p) => p.runs_ns?.length !== n)) return undefined;
  return hpp.runs_ns!.map((t, run) => Math.min(...peers.map((p) => p.runs_ns![run]!)) / t);
}

export function time(ns: number): string {
  return ns < 1e3 ? `${ns.toPrecision(3)} ns` : ns < 1e6 ? `${(ns / 1e3).toPrecision(3)} µs` : `${(ns / 1e6).toPrecision(3)} ms`;
}

const header = ["dataset", "operation", "hppproto", "hppproto CODE_SIZE", ...peers, "hppproto vs fastest peer (median of runs, range)"];

function cells(l: Line): string[] {
  const spread = l.range ? ` (${l.range[0].toFixed(2)}–${l.range[1].toFixed(2)})` : "";
  const speed = l.speedup === undefined ? "" : `${l.speedup.toFixed(2)}×${spread}`;
  const floor = l.floor ? ` (memcpy ${time(l.floor.mean_ns)})` : "";
  return [l.dataset, l.label, l.hpp ? time(l.hpp.mean_ns) + floor : "–", l.codeSize ? time(l.codeSize.mean_ns) : "–", ...peers.map((p) => (l.peer[p] ? time(l.peer[p]!.mean_ns) : "–")), speed];
}

export function markdown(rows: Row[]): string {
  const body = lines(rows).map((l) => `| ${cells(l).join(" | ")} |`);
  return [`| ${header.join(" | ")} |`, `|${header.map((_, i) => (i < 2 ? "---" : "---:")).join("|")}|`, ...body].join("\n");
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

export function html(rows: Row[]): string {
  const body = lines(rows).map((l) => `<tr>${cells(l).map((c, i) => `<td${i >= 2 ? ' class="n"' : ""}>${esc(c)}</td>`).join("")}</tr>`);
  return `<table><thead><tr>${header.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/** Horizontal bars, one per comparison, on a log scale of speedup; 1× is the fastest peer. */
export function chart(rows: Row[], title: string): string {
  const data = lines(rows).filter((l) => l.speedup !== undefined);
  const rowH = 18, left = 430, width = 820, plot = width - left - 70, top = 40;
  const height = top + data.length * rowH + 40;
  const max = Math.max(16, ...data.map((l) => l.range?.[1] ?? l.speedup!));
  const min = Math.min(0.25, ...data.map((l) => l.range?.[0] ?? l.speedup!));
  const x = (v: number) => left + (plot * (Math.log(v) - Math.log(min))) / (Math.log(max) - Math.log(min));
  const ticks = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64].filter((t) => t >= min && t <= max);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${width / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${esc(title)}</text>`,
    `<text x="${width / 2}" y="32" text-anchor="middle" fill="#555">hppproto's speed relative to the fastest of protobufjs, ts-proto, protobuf-es and pbf (median of runs, line: range; log scale; right of 1× is faster)</text>`,
  ];
  for (const t of ticks) {
    parts.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${height - 30}" stroke="${t === 1 ? "#333" : "#ddd"}"/>`);
    parts.push(`<text x="${x(t)}" y="${height - 16}" text-anchor="middle">${t}×</text>`);
  }
  data.forEach((l, i) => {
    const y = top + i * rowH;
    const s = l.speedup!;
    const [a, b] = [x(Math.min(1, s)), x(Math.max(1, s))];
    parts.push(`<text x="${left - 6}" y="${y + 12}" text-anchor="end">${esc(`${l.dataset}: ${l.label}`)}</text>`);
    parts.push(`<rect x="${a}" y="${y + 3}" width="${Math.max(1, b - a)}" height="${rowH - 6}" fill="${s >= 1 ? "#2b7bb9" : "#d9534f"}"/>`);
    if (l.range) parts.push(`<line x1="${x(l.range[0])}" x2="${x(l.range[1])}" y1="${y + rowH / 2}" y2="${y + rowH / 2}" stroke="#222"/>`);
    parts.push(`<text x="${Math.max(b, l.range ? x(l.range[1]) : b) + 4}" y="${y + 12}">${s.toFixed(2)}×</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}
