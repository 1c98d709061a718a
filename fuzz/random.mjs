// The fuzzers' random numbers: mulberry32 from a seed, so that the seed a run prints replays it.
export function randomSource(seed) {
  let state = seed;
  const rand = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n) => Math.floor(rand() * n);
  return { rand, below, pick: (a) => a[below(a.length)] };
}
