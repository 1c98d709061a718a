// Map keys crafted to collide: 2^rounds distinct ASCII strings with one 32-bit FNV-1a hash (Joux's
// multicollision), the hash the codec's duplicate-key check starts from
// (cpp/include/hppproto/map_keys.hpp). Each round finds two seven-letter blocks that take the hash
// from one state to the same next state; every key picks one block of each pair, so whatever a hash
// table does with the hash, the keys all land in one place. Used by the tests and the fuzzers.

const fnv1a = (h, s) => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
};

/** Seven letters spread from j (blocks of a plain counter never collide under FNV-1a). */
function block(j) {
  let x = Math.imul(j, 2654435761) >>> 0;
  let b = "";
  for (let i = 0; i < 7; i++, x = Math.floor(x / 26)) b += String.fromCharCode(97 + (x % 26));
  return b;
}

/** FNV-1a of an ASCII string, from its offset basis. */
export const fnv1aHash = (s) => fnv1a(2166136261, s);

/** 2^rounds distinct keys of one FNV-1a hash, each 7 * rounds letters long. */
export function collidingKeys(rounds) {
  let keys = [""];
  let state = 2166136261;
  for (let r = 0; r < rounds; r++) {
    const seen = new Map();
    for (let j = 0; ; j++) {
      const next = fnv1a(state, block(j));
      const other = seen.get(next);
      if (other === undefined) {
        seen.set(next, j);
        continue;
      }
      const [a, b] = [block(other), block(j)];
      keys = keys.flatMap((k) => [k + a, k + b]);
      state = next;
      break;
    }
  }
  return keys;
}

/** As many keys as collidingKeys(rounds) gives, of the same length, drawn at random. */
export function randomKeys(rounds, random = Math.random) {
  const keys = new Set();
  while (keys.size < 2 ** rounds) {
    let k = "";
    for (let i = 0; i < 7 * rounds; i++) k += String.fromCharCode(97 + Math.floor(random() * 26));
    keys.add(k);
  }
  return [...keys];
}
