// Differential fuzzing of the decoder against @bufbuild/protobuf: random bytes, schema-aware random
// messages of the conformance test types (most fields with their own wire type, some not, nested messages,
// groups, maps, some with runs of keys crafted to collide in the codec's hash, packed runs, unknown
// fields, bad UTF-8, Any in Any about as deep as ProtoJSON's limit) and mutations of them (bit flips, cuts, splices, inserted varints and lengths).
// Both libraries decode every input; they must agree on accept or reject, unless a rule below names
// the difference, and accepted messages must print the same ProtoJSON, which the codec's own writer
// (decodeToJsonString) and reader (fromJsonString) must also give. Prints inputs tried per outcome; exits 1 on the first unexplained difference
// (saved under build/fuzz/differential/).
// Usage: node fuzz/differential.mjs [SECONDS] [SEED]   (after npm run build)
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFileRegistry, fromBinary, toJson as esToJson } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { DecodeError, init, toJson, fromJson, fromJsonString, decodeToJsonString } from "hppproto";
import { prepare, genDir } from "../test/conformance/prepare.mjs";
import { randomSource } from "./random.mjs";
import { collidingKeys } from "../test/support/collisions.mjs";
import { Bytes } from "../test/support/wirecheck.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const protoPath = path.join(root, "testdata/protos/conformance");
const files = [
  "google/protobuf/test_messages_proto2.proto",
  "google/protobuf/test_messages_proto3.proto",
  "conformance/test_protos/test_messages_edition2023.proto",
  "editions/golden/test_messages_proto2_editions.proto",
  "editions/golden/test_messages_proto3_editions.proto",
];
const typeNames = [
  "protobuf_test_messages.proto2.TestAllTypesProto2",
  "protobuf_test_messages.proto2.TestAllRequiredTypesProto2",
  "protobuf_test_messages.proto3.TestAllTypesProto3",
  "protobuf_test_messages.editions.TestAllTypesEdition2023",
  "protobuf_test_messages.editions.proto2.TestAllTypesProto2",
  "protobuf_test_messages.editions.proto3.TestAllTypesProto3",
];
const seconds = Number(process.argv[2] ?? 30);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const outDir = path.join(root, "build/fuzz/differential");

// ---- the two decoders ----
prepare();
await init();
const ours = new Map();
for (const f of files) {
  for (const v of Object.values(await import(`${genDir}/${f.replace(/\.proto$/, "_pb.js")}`))) {
    if (v && typeof v === "object" && typeof v.typeName === "string") ours.set(v.typeName, v);
  }
}
const { Any: AnyType } = await import(`${genDir}/google/protobuf/any_pb.js`);
mkdirSync(outDir, { recursive: true });
const image = path.join(outDir, "conformance.binpb");
execFileSync(path.join(root, "node_modules/.bin/buf"), ["build", protoPath, ...files.flatMap((f) => ["--path", path.join(protoPath, f)]), "-o", image]);
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(image)));

// ---- random numbers and bytes ----
const { rand, below, pick } = randomSource(seed);
const randomBytes = (n) => Uint8Array.from({ length: n }, () => below(256));


const interestingVarints = [0n, 1n, 127n, 128n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x100000000n, -1n, -(2n ** 63n), 2n ** 63n - 1n];
const randomVarint = () => (rand() < 0.5 ? pick(interestingVarints) : BigInt(below(1 << 30)) * BigInt(1 + below(1 << 20)));
const utf8 = new TextEncoder();
const randomText = () => {
  if (rand() < 0.1) return randomBytes(below(6)); // often not UTF-8
  return utf8.encode(pick(["", "a", "héllo", "日本", "\u{1F600}", "x".repeat(below(40))]));
};

// wire types by field kind (ScalarType numbers from descriptor.proto)
const FIXED64 = new Set([1, 6, 16]); // double, fixed64, sfixed64
const FIXED32 = new Set([2, 7, 15]); // float, fixed32, sfixed32
const LENGTH = new Set([9, 12]); // string, bytes
const wireOf = (scalar) => (FIXED64.has(scalar) ? 1 : FIXED32.has(scalar) ? 5 : LENGTH.has(scalar) ? 2 : 0);

function scalarValue(w, scalar) {
  switch (wireOf(scalar)) {
    case 1: return w.raw(randomBytes(8));
    case 5: return w.raw(randomBytes(4));
    case 2: return w.delimited(scalar === 9 ? randomText() : randomBytes(below(8)));
    default: return w.varint(randomVarint());
  }
}

function enumValue(w, e) {
  return w.varint(rand() < 0.8 ? BigInt(pick(e.values).number) : randomVarint());
}

/** A schema-aware random message: fields mostly with their own wire type. */
function randomMessage(desc, depth) {
  const w = new Bytes();
  // required fields first, usually (LEGACY_REQUIRED presence), so that such messages get accepted
  if (depth < 3 && rand() < 0.9) for (const f of desc.fields) if (f.presence === 3) writeField(w, f, depth);
  const count = below(depth > 3 ? 2 : 8);
  for (let i = 0; i < count; i++) {
    if (rand() < 0.05 || desc.fields.length === 0) {
      const wt = pick([0, 1, 2, 5]);
      w.tag(1 + below(600), wt);
      if (wt === 0) w.varint(randomVarint()); else if (wt === 1) w.raw(randomBytes(8)); else if (wt === 5) w.raw(randomBytes(4)); else w.delimited(randomBytes(below(6)));
      continue;
    }
    const f = pick(desc.fields);
    writeField(w, f, depth);
  }
  return w.finish();
}

function writeValue(w, f, kind, depth) {
  const no = f.number;
  if (kind === "message") {
    if (f.delimitedEncoding) return w.tag(no, 3).raw(randomMessage(f.message, depth + 1)).tag(no, 4);
    return w.tag(no, 2).delimited(randomMessage(f.message, depth + 1));
  }
  if (kind === "enum") return enumValue(w.tag(no, 0), f.enum);
  const wt = rand() < 0.03 ? pick([0, 1, 2, 5]) : wireOf(f.scalar);
  w.tag(no, wt);
  return wt === wireOf(f.scalar) ? scalarValue(w, f.scalar) : scalarValue(w, pick([1, 2, 9, 5]));
}

function writeField(w, f, depth) {
  if (depth > 5) return;
  switch (f.fieldKind) {
    case "scalar": return writeValue(w, f, "scalar", depth);
    case "enum": return writeValue(w, f, "enum", depth);
    case "message": return writeValue(w, f, "message", depth);
    case "list": {
      if (f.listKind !== "message" && wireOf(f.scalar ?? 5) !== 2 && rand() < 0.6) {
        const run = new Bytes();
        for (let n = below(6); n > 0; n--) {
          if (f.listKind === "enum") enumValue(run, f.enum); else scalarValue(run, f.scalar);
        }
        return w.tag(f.number, 2).delimited(run.finish());
      }
      for (let n = 1 + below(3); n > 0; n--) writeValue(w, f, f.listKind, depth);
      return;
    }
    case "map": {
      // string keys: sometimes a run of keys that collide in the codec's hash, a few given twice
      if (f.mapKey === 9 && rand() < 0.1) {
        for (let n = 17 + below(200); n > 0; n--) writeMapEntry(w, f, depth, (entry) => entry.delimited(pick(collidingPool)));
        return;
      }
      return writeMapEntry(w, f, depth, (entry) => scalarValue(entry, f.mapKey));
    }
  }
}

/** Map keys of one FNV-1a hash, the codec's (cpp/include/hppproto/map_keys.hpp). */
const collidingPool = collidingKeys(9).map((k) => utf8.encode(k));

function writeMapEntry(w, f, depth, key) {
  const entry = new Bytes();
  if (rand() < 0.9) key(entry.tag(1, wireOf(f.mapKey)));
  if (rand() < 0.9) {
    if (f.mapKind === "message") entry.tag(2, 2).delimited(randomMessage(f.message, depth + 1));
    else if (f.mapKind === "enum") enumValue(entry.tag(2, 0), f.enum);
    else scalarValue(entry.tag(2, wireOf(f.scalar)), f.scalar);
  }
  w.tag(f.number, 2).delimited(entry.finish());
}

/**
 * A message whose google.protobuf.Any field holds `levels` Anys, one in the other, the last one a
 * small message of the type: its JSON nests an object per Any, so levels near 200 try the
 * writers' and readers' limit (200 objects and arrays), which hppproto's writers and readers share.
 */
function nestedAny(desc, anyField, levels) {
  const any = (url, value) => new Bytes().tag(1, 2).delimited(utf8.encode(`type.googleapis.com/${url}`)).tag(2, 2).delimited(value).finish();
  // innermost, optional_int32 (field 1 of every type here): well-formed, which bufbuild, reading an
  // Any's bytes only to print them, would otherwise not always agree with
  let value = any(desc.typeName, new Bytes().tag(1, 0).varint(below(1000)).finish());
  for (let i = 1; i < levels; i++) value = any("google.protobuf.Any", value);
  return new Bytes().tag(anyField.number, 2).delimited(value).finish();
}

function mutate(b, corpus) {
  const out = [...b];
  for (let n = 1 + below(3); n > 0; n--) {
    const at = below(out.length + 1);
    switch (below(7)) {
      case 0: if (out.length) out[Math.min(at, out.length - 1)] ^= 1 << below(8); break;
      case 1: if (out.length) out[Math.min(at, out.length - 1)] = below(256); break;
      case 2: out.splice(at, 1 + below(4)); break;
      case 3: out.splice(at, 0, ...randomBytes(1 + below(4))); break;
      case 4: out.splice(at, 0, ...new Bytes().varint(pick(interestingVarints)).finish()); break;
      case 5: out.length = at; break;
      case 6: { const other = pick(corpus); const from = below(other.length + 1); out.splice(at, 0, ...other.slice(from, from + 1 + below(16))); break; }
    }
  }
  return Uint8Array.from(out);
}

// ---- comparing ----
const outcome = (fn) => {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    return { ok: false, error: e };
  }
};

/**
 * Documented differences (README, "Decoding rules"): hppproto rejects what protobuf's C++ parser
 * rejects, where @bufbuild/protobuf is more lenient. A rule explains a reject of hppproto's that the
 * other library accepted, by the error code and, where needed, where the error is.
 */
const rules = {
  INVALID_UTF8: "invalid UTF-8 in a string field that requires it (bufbuild replaces it with U+FFFD)",
  MISSING_REQUIRED: "a proto2 required field missing (bufbuild does not check on parse)",
  // bufbuild fails a value that runs past the end of the input, so when it accepts the input a
  // truncated value ran past the end of a message, map entry or packed run inside it
  TRUNCATED: "a value running past the end of the message, map entry or packed run that holds it (bufbuild reads on into the bytes after it)",
  LENGTH_OUT_OF_BOUNDS: "a length running past the end of the message or map entry that holds it (likewise)",
  UNMATCHED_END_GROUP: "an end-group tag that closes no open group (bufbuild stops reading there and drops the rest)",
  PACKED_LENGTH: "a packed run of fixed-size values whose length is not a multiple of the size (bufbuild reads the last value on past the run)",
  UNTERMINATED_GROUP: "a group not closed before the end of the message holding it (bufbuild looks for its end past that message)",
  VARINT_OVERLONG: "a 10-byte varint whose last byte carries bits past 64 (bufbuild drops them)",
};

/** Messages both decode and print differently: a rule takes hppproto's and bufbuild's JSON outcome. */
const withoutNulls = (v) =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, withoutNulls(x)]))
    : Array.isArray(v) ? v.map(withoutNulls) : v;
const jsonRules = {
  "a google.protobuf.Value with no kind set: hppproto refuses to print it, as upb does; bufbuild prints null": (a) =>
    !a.ok && String(a.error.message).startsWith("google.protobuf.Value has no kind set"),
  "an Any with a value but no type URL: hppproto refuses to print it, as upb does; bufbuild prints {} and drops the value": (a) =>
    !a.ok && String(a.error.message).startsWith('invalid Any type URL ""'),
  "a NullValue field holding a number other than 0 is set: hppproto prints null for it, as protobuf does; bufbuild leaves it out": (a, b) =>
    a.ok && b.ok && JSON.stringify(withoutNulls(JSON.parse(a.value))) === JSON.stringify(withoutNulls(JSON.parse(b.value))),
};
/**
 * Whether the message's bytes hold, at any depth bufbuild reads, a known field sent with a wire
 * type its type cannot have. hppproto skips such a field as an unknown one, as protobuf does, and so
 * rejects what is malformed inside it (a group whose content is not wire format), where bufbuild
 * reads the bytes as the declared type.
 */
function holdsOddWireType(desc, bytes, start = 0, end = bytes.length, depth = 0) {
  let p = start;
  const varint = () => {
    let v = 0n;
    for (let shift = 0n; p < end && shift < 70n; shift += 7n) {
      const b = bytes[p++];
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
    throw new Error("bad varint");
  };
  const skip = (wt, number) => {
    if (wt === 0) varint();
    else if (wt === 1) p += 8;
    else if (wt === 5) p += 4;
    else if (wt === 2) {
      const n = Number(varint()); // read before p is: "p += varint()" would add to the old p
      p += n;
    }
    else if (wt === 3) {
      for (;;) {
        if (p >= end) throw new Error("open group");
        const tag = Number(varint());
        if ((tag & 7) === 4) return;
        skip(tag & 7, tag >>> 3);
      }
    } else throw new Error(`wire type ${wt} of ${number}`);
  };
  try {
    while (p < end && depth < 100) {
      const tag = Number(varint());
      const number = tag >>> 3;
      const wt = tag & 7;
      // extensions are fields of the message they extend in hppproto's generated code
      const field = desc?.fields.find((f) => f.number === number) ?? (desc?.typeName ? registry.getExtensionFor(desc, number) : undefined);
      if (field && !fitsWireType(field, wt)) return true;
      const inner = field?.fieldKind === "map" ? mapEntry(field)
        : field?.fieldKind === "message" || (field?.fieldKind === "list" && field.listKind === "message") ? field.message : undefined;
      // into groups before skipping them (what is malformed inside one stops the skip, not the scan,
      // which ends at the group's end tag), into length-delimited messages after
      if (inner && wt === 3 && holdsOddWireType(inner, bytes, p, end, depth + 1)) return true;
      const bodyStart = p;
      skip(wt, number);
      if (inner && wt === 2 && holdsOddWireType(inner, bytes, bodyStart + lengthSize(bytes, bodyStart), p, depth + 1)) return true;
    }
  } catch {
    // malformed from here on: what came before decides
  }
  return false;
}
const lengthSize = (bytes, p) => { let n = 1; while (bytes[p++] >= 0x80) n++; return n; };
/** A map field's entry as a message of two fields, key (1) and value (2). */
const mapEntry = (field) => ({
  fields: [
    { number: 1, fieldKind: "scalar", scalar: field.mapKey },
    { number: 2, fieldKind: field.mapKind, scalar: field.scalar, message: field.message, delimitedEncoding: false },
  ],
});
// ScalarType: DOUBLE 1, FIXED64 6, SFIXED64 16 are 64-bit; FLOAT 2, FIXED32 7, SFIXED32 15 32-bit; STRING 9, BYTES 12 length-delimited
const scalarWireType = (t) => ([1, 6, 16].includes(t) ? 1 : [2, 7, 15].includes(t) ? 5 : [9, 12].includes(t) ? 2 : 0);
function fitsWireType(field, wt) {
  const message = field.delimitedEncoding ? 3 : 2;
  switch (field.fieldKind) {
    case "scalar": return wt === scalarWireType(field.scalar);
    case "enum": return wt === 0;
    case "message": return wt === message;
    case "map": return wt === 2;
    case "list":
      if (field.listKind === "message") return wt === message;
      if (field.listKind === "enum") return wt === 0 || wt === 2;
      return wt === scalarWireType(field.scalar) || (wt === 2 && ![9, 12].includes(field.scalar));
  }
  return true;
}

/**
 * Whether the Anys in optional_any, one in the other, hold a field hppproto kept as an unknown one
 * (sent with another wire type) at some level, or end in a value that holds one: both libraries
 * read those values when they print JSON, each its own way. Followed in a loop (the chains the
 * generator makes are about 200 deep), with hppproto's own decoder.
 */
function anyChainHoldsOddWireType(typeName, bytes) {
  try {
    let any = ours.get(typeName).decode(bytes).optionalAny;
    const anyDesc = registry.getMessage("google.protobuf.Any");
    for (let level = 0; any && level < 1000; level++) {
      if (any.$unknown) return true;
      const name = any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1);
      if (name !== "google.protobuf.Any") {
        const desc = registry.getMessage(name);
        return desc !== undefined && holdsOddWireType(desc, any.value);
      }
      // an Any whose own fields come with another wire type (its value as a group, say): hppproto
      // skips the field as unknown, and fails where what it skips is no valid wire data
      if (holdsOddWireType(anyDesc, any.value)) return true;
      any = AnyType.decode(any.value);
    }
  } catch {
    // what hppproto cannot read is not this rule's
  }
  return false;
}

const oddRule = "explained: a known field with another wire type (hppproto keeps it as an unknown field, as protobuf does; bufbuild reads it as declared, so values or acceptance differ)";
const stats = { inputs: 0, bothAccepted: 0, bothRejected: 0, [oddRule]: 0 };
for (const code of Object.keys(rules)) stats[`explained ${code}`] = 0;

const json = (fn) => outcome(() => JSON.stringify(fn()));

function check(typeName, bytes) {
  stats.inputs++;
  const mine = outcome(() => ours.get(typeName).decode(bytes));
  const theirs = outcome(() => fromBinary(registry.getMessage(typeName), bytes));
  if (mine.ok && theirs.ok) {
    stats.bothAccepted++;
    // bufbuild's JSON is read back through hppproto, so that formatting choices (the digits of a
    // float) do not count, only values
    const type = ours.get(typeName);
    const a = json(() => toJson(type, mine.value));
    const b = json(() => toJson(type, fromJson(type, esToJson(registry.getMessage(typeName), theirs.value, { registry }))));
    const same = a.ok === b.ok && (!a.ok || a.value === b.value);
    if (!same && (holdsOddWireType(registry.getMessage(typeName), bytes) || anyChainHoldsOddWireType(typeName, bytes))) {
      stats[oddRule]++;
      return undefined;
    }
    const explained = !same && b.ok && Object.keys(jsonRules).find((k) => jsonRules[k](a, b));
    if (explained) {
      stats[`explained in JSON: ${explained}`] = (stats[`explained in JSON: ${explained}`] ?? 0) + 1;
      return undefined;
    }
    if (!same) {
      return `accepted by both, but the JSON differs:\n  hppproto: ${a.value ?? a.error}\n  bufbuild: ${b.value ?? b.error}`;
    }
    // the codec's writer and reader (map keys: its duplicate-key check) give the same message
    const c = json(() => toJson(type, fromJsonString(type, decodeToJsonString(type, bytes))));
    if (a.ok && (!c.ok || c.value !== a.value)) return `decodeToJsonString read back by fromJsonString differs:\n  toJson: ${a.value}\n  codec:  ${c.value ?? c.error}`;
    return undefined;
  }
  if (!mine.ok && !theirs.ok) {
    stats.bothRejected++;
    if (!(mine.error instanceof DecodeError)) return `hppproto threw ${mine.error}`;
    return undefined;
  }
  if ((mine.ok || mine.error instanceof DecodeError) && holdsOddWireType(registry.getMessage(typeName), bytes)) {
    // one of the two fails inside the odd field's bytes, each reading them its own way
    stats[oddRule]++;
    return undefined;
  }
  if (!mine.ok && mine.error instanceof DecodeError && Object.hasOwn(rules, mine.error.code)) {
    stats[`explained ${mine.error.code}`]++;
    return undefined;
  }
  return mine.ok ? `bufbuild rejects (${theirs.error.message}), hppproto accepts` : `hppproto rejects (${mine.error.message}), bufbuild accepts`;
}

const hex = (b) => Buffer.from(b).toString("hex");
const corpus = [];
const deadline = Date.now() + seconds * 1000;
console.log(`differential fuzzing against @bufbuild/protobuf for ${seconds} s, seed ${seed}`);
while (Date.now() < deadline) {
  for (let batch = 0; batch < 200; batch++) {
    const typeName = pick(typeNames);
    const desc = registry.getMessage(typeName);
    const dice = rand();
    const anyField = desc.fields.find((f) => f.message?.typeName === "google.protobuf.Any");
    const bytes = dice < 0.05 ? randomBytes(below(64))
      : anyField && dice < 0.07 ? nestedAny(desc, anyField, pick([1, 2, 198, 199, 200, 201, 1 + below(400)]))
      : corpus.length > 50 && dice < 0.6 ? mutate(pick(corpus), corpus) : randomMessage(desc, 0);
    const accepted = stats.bothAccepted;
    const problem = check(typeName, bytes);
    if (stats.bothAccepted > accepted) { // mutations start from messages both libraries accept
      if (corpus.length < 2000) corpus.push(bytes);
      else corpus[below(corpus.length)] = bytes;
    }
    if (problem !== undefined) {
      const file = path.join(outDir, `difference-${hex(bytes).slice(0, 16)}.json`);
      writeFileSync(file, JSON.stringify({ typeName, hex: hex(bytes), problem }, null, 1));
      console.error(`UNEXPLAINED DIFFERENCE on ${typeName} ${hex(bytes)}\n${problem}\n(saved to ${file})`);
      console.log(stats);
      process.exit(1);
    }
  }
}
console.log(Object.entries(stats).map(([k, v]) => `${k}: ${v.toLocaleString("en")}`).join("\n"));
