// The compiled decoders against the codec's table-driven decoder, on inputs made from any schema:
// random wire bytes shaped by a SchemaDef (fields mostly with their own wire type, packed and
// unpacked runs, sub-messages, groups, map entries, closed-enum misses, unknown fields, bad UTF-8)
// and mutations of them. Shared by test/compiled.test.ts and fuzz/compiled.mjs.

import { decoderState, frameMessage, instantiateCompiled } from "../../dist/ts/compiled.js";
import { valueSize } from "../../dist/ts/layout.js";
import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

// FieldType and Label numbers of ts/schema.ts
const DOUBLE = 1, FLOAT = 2, STRING = 9, GROUP = 10, MESSAGE = 11, BYTES = 12, ENUM = 14;
const FIXED64 = new Set([DOUBLE, 6, 16]);
const FIXED32 = new Set([FLOAT, 7, 15]);
const REPEATED = 3, MAP = 4;

const wireOf = (t) => (FIXED64.has(t) ? 1 : FIXED32.has(t) ? 5 : t === STRING || t === BYTES || t === MESSAGE ? 2 : t === GROUP ? 3 : 0);
const interesting = [0n, 1n, 2n, 127n, 128n, 300n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x100000000n, (1n << 63n) - 1n, (1n << 64n) - 1n];
const utf8 = new TextEncoder();

/** Wire bytes written field by field (the fuzzers' inputs). */
/** The schemas of every generated module under dir (one per .proto file), in file name order. */
export async function fileSchemas(dir) {
  const files = [];
  const walk = (at) => {
    for (const name of readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/_pb\.(ts|js)$/.test(name)) files.push(full);
    }
  };
  walk(dir);
  const defs = [];
  for (const file of files) {
    const { $schema } = await import(pathToFileURL(file).href);
    if ($schema !== undefined) defs.push($schema);
  }
  return defs;
}

export class Bytes {
  parts = [];
  byte(b) { this.parts.push(b & 0xff); return this; }
  varint(v) {
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) { this.byte(Number(x & 0x7fn) | 0x80); x >>= 7n; }
    return this.byte(Number(x));
  }
  tag(no, wt) { return this.varint((BigInt(no) << 3n) | BigInt(wt)); }
  raw(b) { for (const x of b) this.byte(x); return this; }
  delimited(b) { return this.varint(b.length).raw(b); }
  finish() { return Uint8Array.from(this.parts); }
}

/** Random wire bytes for message `index` of `def`; `r` is fuzz/random.mjs's randomSource. */
export function randomInput(def, index, r, depth = 0) {
  const { rand, below, pick } = r;
  const bytesOf = (n) => Uint8Array.from({ length: n }, () => below(256));
  const text = () => (rand() < 0.05 ? bytesOf(1 + below(5)) : utf8.encode(pick(["", "a", "héllo", "日本語", "\u{1F600}", "x".repeat(below(70))])));
  const varint = (f) => {
    if (f.type === ENUM && rand() < 0.9) {
      const values = def.enums[f.ref].values;
      return BigInt(pick(values)[0]);
    }
    return rand() < 0.5 ? pick(interesting) : BigInt(below(1 << 20));
  };
  const scalar = (w, f, wt) => {
    if (wt === 1) return w.raw(bytesOf(8));
    if (wt === 5) return w.raw(bytesOf(4));
    if (wt === 2) return w.delimited(f.type === STRING ? text() : bytesOf(below(12)));
    return w.varint(varint(f));
  };
  const message = (i, d) => randomInput(def, i, r, d);
  const value = (w, f) => {
    const natural = wireOf(f.type);
    const wt = rand() < 0.02 ? pick([0, 1, 2, 5]) : natural;
    if (f.type === MESSAGE && wt === 2) return w.tag(f.number, 2).delimited(depth < 4 ? message(f.ref, depth + 1) : new Uint8Array(0));
    if (f.type === GROUP && wt === 3) return w.tag(f.number, 3).raw(depth < 4 ? message(f.ref, depth + 1) : new Uint8Array(0)).tag(f.number, 4);
    if (wt === 3) return w.tag(f.number, 2).delimited(bytesOf(2));
    return scalar(w.tag(f.number, wt), f, wt);
  };
  const msg = def.messages[index];
  const w = new Bytes();
  const count = depth > 2 ? below(3) : below(10);
  for (let n = 0; n < count; n++) {
    if (rand() < 0.04 || msg.fields.length === 0) {
      const wt = pick([0, 1, 2, 5]);
      scalar(w.tag(1 + below(3000), wt), { type: wt === 2 ? BYTES : 3 }, wt);
      continue;
    }
    const f = pick(msg.fields);
    if (f.label === MAP) {
      const entry = def.messages[f.ref];
      const e = new Bytes();
      for (const ef of entry.fields) if (rand() < 0.9) value(e, ef);
      w.tag(f.number, 2).delimited(e.finish());
    } else if (f.label === REPEATED && wireOf(f.type) !== 2 && wireOf(f.type) !== 3 && rand() < 0.5) {
      const run = new Bytes();
      for (let k = below(12); k > 0; k--) scalar(run, f, wireOf(f.type));
      w.tag(f.number, 2).delimited(run.finish());
    } else {
      for (let k = f.label === REPEATED ? 1 + below(4) : 1; k > 0; k--) value(w, f);
    }
  }
  return w.finish();
}

/** bytes changed a little: flipped bits, bytes cut, inserted or replaced, a cut end. */
export function mutate(bytes, r) {
  const { below } = r;
  const out = [...bytes];
  for (let n = 1 + below(3); n > 0; n--) {
    const at = below(out.length + 1);
    switch (below(5)) {
      case 0: if (out.length) out[Math.min(at, out.length - 1)] ^= 1 << below(8); break;
      case 1: if (out.length) out[Math.min(at, out.length - 1)] = below(256); break;
      case 2: out.splice(at, 1 + below(3)); break;
      case 3: out.splice(at, 0, below(256)); break;
      case 4: out.length = at; break;
    }
  }
  return Uint8Array.from(out);
}

/**
 * A checker of def's compiled decoders against hp_decode in runtime `rt`: check(index, bytes,
 * shift) decodes bytes with both into an arena whose block is filled with 0xa5 first, and returns
 * "same" (identical record address and arena bytes), "error" (both failed with the same Status:
 * code, offset, detail, path; the compiled decoder left the arena as it was), "fallback" (the
 * compiled decoder returned 0 and left the arena as it was), or throws describing the difference.
 */
export function decoderChecker(rt, def, decoders) {
  const x = rt.exports;
  const schema = rt.schema(def);
  const arena = x.hp_arena_new(0xffffffff, 1 << 20);
  x.hp_arena_alloc(arena, 8); // its first block
  const inputSize = 1 << 18;
  const input = rt.malloc(inputSize + 8);
  const u32 = () => new Uint32Array(x.memory.buffer);
  const u8 = () => new Uint8Array(x.memory.buffer);
  const fresh = () => {
    const start = u32()[(arena + 8) >>> 2] + 8;
    u8().fill(0xa5, start, start + (1 << 20));
    u32()[arena >>> 2] = start;
    return start;
  };
  const statusAt = x.hp_status() >>> 2;
  const status = () => statusWords(u32().slice(statusAt, statusAt + 5 + 3 * 64), hostOf(rt), def).join(",");
  const run = (decode) => {
    const start = fresh();
    const rec = decode() >>> 0;
    return { rec, arena: u8().slice(start, u32()[arena >>> 2]), status: status() };
  };
  const check = (index, bytes, shift = 0) => {
    if (bytes.length > inputSize) return "skipped";
    u8().set(bytes, input + shift);
    const generic = run(() => x.hp_decode(schema, index, arena, input + shift, bytes.length, 0));
    const compiled = run(() => decoders[index](arena, input + shift, bytes.length, 0));
    const where = () => `${def.messages[index].name}, ${bytes.length} bytes: ${Buffer.from(bytes).toString("hex")}`;
    return outcome(generic, compiled, generic.rec !== 0, compiled.rec > 1, where, () => {
      if (generic.rec !== compiled.rec) throw new Error(`compiled record at ${compiled.rec}, the codec's at ${generic.rec} (${where()})`);
    });
  };
  /**
   * "same", "error" or "fallback" for the two decodes' results, or throws naming the difference:
   * a compiled decoder that did not decode left the arena as it was; both failed with one Status,
   * or both decoded to the same arena bytes (and `alike` holds).
   */
  const outcome = (generic, compiled, genericDecoded, compiledDecoded, where, alike) => {
    if (!compiledDecoded) {
      if (compiled.arena.length !== 0) throw new Error(`a ${compiled.rec ? "failure" : "fallback"} left ${compiled.arena.length} bytes in the arena (${where()})`);
      if (compiled.rec === 0) return "fallback";
      if (genericDecoded) throw new Error(`the compiled decoder failed (${compiled.status}), the codec decoded (${where()})`);
      if (compiled.status !== generic.status) throw new Error(`statuses differ: compiled ${compiled.status}, codec ${generic.status} (${where()})`);
      return "error";
    }
    if (!genericDecoded) throw new Error(`the codec failed (${generic.status}), the compiled decoder decoded (${where()})`);
    alike();
    if (!Buffer.from(generic.arena).equals(Buffer.from(compiled.arena))) throw new Error(`the arenas differ (${where()})`);
    return "same";
  };
  const out = rt.malloc(16);
  const slot = () => Array.from(u32().subarray(out >>> 2, (out >>> 2) + 3)).join(",");
  /** check() for a length-delimited run and hp_decode_delimited: the records, the array of them and the slot too. */
  const checkDelimited = (index, bytes, shift = 0) => {
    if (bytes.length > inputSize) return "skipped";
    u8().set(bytes, input + shift);
    const generic = run(() => x.hp_decode_delimited(schema, index, arena, input + shift, bytes.length, 0, out));
    generic.slot = slot();
    const compiled = run(() => decoders.delimited[index](arena, input + shift, bytes.length, 0, out));
    compiled.slot = slot();
    const where = () => `${def.messages[index].name}, a run of ${bytes.length} bytes: ${Buffer.from(bytes).toString("hex")}`;
    if (compiled.rec > 2) throw new Error(`the compiled decoder returned ${compiled.rec} (${where()})`);
    return outcome(generic, compiled, generic.rec === 1, compiled.rec === 2, where, () => {
      if (generic.slot !== compiled.slot) throw new Error(`the slots differ: compiled ${compiled.slot}, codec ${generic.slot} (${where()})`);
    });
  };
  return { check, checkDelimited, release: () => { x.hp_arena_free(arena); x.free(input); x.free(out); } };
}

/** A length-delimited run of up to `most` random messages of message `index` (randomInput's), each after its varint length. */
export function randomRun(def, index, r, most = 4) {
  const parts = [];
  for (let n = r.below(most + 1); n > 0; n--) {
    const message = randomInput(def, index, r);
    const length = [];
    for (let v = message.length; ; v >>>= 7) {
      if (v < 0x80) {
        length.push(v);
        break;
      }
      length.push((v & 0x7f) | 0x80);
    }
    parts.push(...length, ...message);
  }
  return new Uint8Array(parts);
}

/** def's compiled decoders instantiated against runtime rt's memory (or another host's), as the runtime does. */
export function compiledDecoders(rt, def, host = hostOf(rt)) {
  return instantiateCompiled(def, host, () => {});
}

/**
 * A Status's words up to its path's end, each path frame's message as its index in def (the
 * codec's frames hold that; a compiled module's, its own schema's index and its number: see
 * compiled.ts FRAME_MODULE_SHIFT), so that the two compare.
 */
export function statusWords(words, host, def) {
  const out = Array.from(words.subarray(0, 5 + 3 * words[2]));
  for (let i = 5; i < out.length; i += 3) {
    const [owner, index] = frameMessage(host, def, out[i]);
    const name = owner.messages[index]?.name;
    out[i] = owner === def ? index : def.messages.findIndex((m) => m.name === name && !m.extensionHolder);
  }
  return out;
}

const hosts = new WeakMap();

/** What runtime rt gives compiled modules: one host per runtime, as the runtime has. */
export function hostOf(rt) {
  let host = hosts.get(rt);
  if (host === undefined) hosts.set(rt, (host = newHost(rt)));
  return host;
}

function newHost(rt) {
  const x = rt.exports;
  return {
    memory: x.memory, limits: x.hp_limits(), status: x.hp_status(),
    arenaReset: x.hp_arena_reset, arenaReserved: x.hp_arena_reserved, arenaGrow: x.hp_arena_grow, arenaRewind: x.hp_arena_rewind,
    state: decoderState(), modules: [],
  };
}

/**
 * A record of message `index` of def in `memory` as a plain value, addresses left out: every field
 * its slot holds (64-bit and floating-point values as their bits), presence, the set oneof member,
 * arrays with their capacity, sub-messages followed, unknown fields as hex. Records built in two
 * memories compare equal when they hold the same message the same way.
 */
export function recordValue(def, memory, index, rec) {
  const dv = new DataView(memory.buffer);
  const hex = (p, n) => Buffer.from(new Uint8Array(memory.buffer, p, n)).toString("hex");
  const word = (p) => dv.getUint32(p, true);
  const element = (type, ref, p) => {
    switch (type) {
      case 1: case 3: case 4: case 6: case 16: case 18: return String(dv.getBigUint64(p, true)); // 64 bits
      case 8: return dv.getUint8(p);
      case 9: case 12: return hex(word(p), word(p + 4));
      case 10: case 11: return word(p) === 0 ? null : recordValue(def, memory, ref, word(p));
      default: return word(p);
    }
  };
  const msg = def.messages[index];
  const unknown = [];
  for (let i = 0; i < word(rec + 4); i++) unknown.push(hex(word(word(rec) + 8 * i), word(word(rec) + 8 * i + 4)));
  const out = { unknown };
  for (const f of msg.fields) {
    const at = rec + f.offset;
    if (f.label === REPEATED || f.label === MAP) {
      const width = valueSize(f.type);
      const items = [];
      for (let i = 0; i < word(at + 4); i++) items.push(element(f.type, f.ref, word(at) + i * width));
      out[f.name] = { items, capacity: word(at + 8) };
      continue;
    }
    if (f.label === 2 && word(rec + f.presence) !== f.number) continue; // another oneof member's slot
    const present = f.label === 1 ? (dv.getUint8(rec + (f.presence >>> 3)) >> (f.presence & 7)) & 1 : undefined;
    out[f.name] = { value: element(f.type, f.ref, at), present };
  }
  return out;
}
