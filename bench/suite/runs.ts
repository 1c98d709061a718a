// Several runs of the suite as one result: each row's median time, with every run's time kept so
// that ratios can be taken within a run (a loaded 2-core machine swings up to 2x between runs).
import type { Row } from "./index.js";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Rows of every run (each run the same tasks) merged: mean_ns is the median of the runs' means. */
export function combineRuns(runs: Row[][]): Row[] {
  const key = (r: Row) => `${r.dataset}\u0000${r.operation}\u0000${r.library}`;
  const byKey = new Map<string, Row[]>();
  for (const run of runs) for (const r of run) byKey.set(key(r), [...(byKey.get(key(r)) ?? []), r]);
  return [...byKey.values()].map((rs) => {
    const runs_ns = rs.map((r) => r.mean_ns);
    const mid = median(runs_ns);
    return { ...rs[0]!, mean_ns: mid, hz: 1e9 / mid, p99_ns: median(rs.map((r) => r.p99_ns)), samples: rs.reduce((n, r) => n + r.samples, 0), runs_ns };
  });
}

export { median };
