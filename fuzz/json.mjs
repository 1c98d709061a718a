// Fuzzing of the ProtoJSON reader's fast path (JSON.parse, taken when a count of keys and ":"
// proves it exact) against the strict parser, on random JSON and mutations of it made to fool
// that count: duplicate keys, escaped colons (\u003a, \u003A) and runs that only look like them
// ("\\u003a"), colons inside strings and keys, numbers beyond 2^53. Whenever the fast path gives a
// value, the strict parser must give the same; whenever the strict parser refuses the text, the
// fast path must too. Texts of a conformance message with a key given twice must be refused by
// fromJsonString and encodeFromJsonString (the codec first, then the JS reader). Exits 1 on the
// first difference (saved under build/fuzz/json/).
// Usage: node fuzz/json.mjs [SECONDS] [SEED]   (after npm run build)
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { init, JsonError, toJsonString, fromJson, fromJsonString, encodeFromJsonString } from "hppproto";
import { JsonNumber, parseFast, parseJson } from "../dist/ts/json/parse.js";
import { prepare, genDir } from "../test/conformance/prepare.mjs";
import { randomSource } from "./random.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.argv[2] ?? 30);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const outDir = path.join(root, "build/fuzz/json");
prepare();
const { TestAllTypesProto3: T } = await import(`${genDir}/google/protobuf/test_messages_proto3_pb.js`);
await init();

const { rand, below, pick } = randomSource(seed);

// ---- random JSON text, written piece by piece so that escapes are the text's own ----
const stringPieces = ["a", "b", ":", "::", "\\u003a", "\\u003A", "\\\\u003a", "\\\\", "\\\"", "\\u0041", "\\n", "é", "\\ud83d\\ude00", " "];
const keyPieces = ["a", "b", "x", ":", "\\u003a", "\\u003A", "@type", "\\u0061"]; // \u0061 is "a" written another way
const numbers = ["0", "-0", "1", "-1", "1.5", "1e2", "9007199254740993", "-9007199254740993", "18446744073709551615", "1e400", "0.1"];
const str = (pieces) => `"${Array.from({ length: below(4) }, () => pick(pieces)).join("")}"`;

function value(depth) {
  const dice = below(depth > 4 ? 4 : 7);
  switch (dice) {
    case 0: return str(stringPieces);
    case 1: return pick(numbers);
    case 2: return pick(["true", "false", "null"]);
    case 3: return str(["x"]);
    case 4: case 5: return object(depth);
    default: return `[${Array.from({ length: below(4) }, () => value(depth + 1)).join(",")}]`;
  }
}

function object(depth) {
  const members = Array.from({ length: below(5) }, () => `${str(keyPieces)}:${value(depth + 1)}`);
  // a key given again: the member itself, or its key with another value
  if (members.length && rand() < 0.5) {
    const m = pick(members);
    const again = rand() < 0.5 ? m : `${m.slice(0, m.indexOf('":') + 2)}${value(depth + 1)}`;
    members.splice(below(members.length + 1), 0, again);
  }
  return `{${members.join(rand() < 0.2 ? " , " : ",")}}`;
}

/** Inserts, at a random place inside a string of the text, something that changes its count of ":". */
function mutate(text) {
  const quotes = [];
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) quotes.push(i);
  if (quotes.length === 0) return text;
  const at = pick(quotes) + 1;
  return text.slice(0, at) + pick(["\\u003a", "\\u003A", ":", "\\\\u003a", "\\\\\\u003a"]) + text.slice(at);
}

// ---- comparing ----
/** Whether the fast path's value (JS numbers) says what the strict parser's (JsonNumbers) says. */
function same(fast, strict) {
  if (strict instanceof JsonNumber) return typeof fast === "number" && Object.is(fast, Number(strict.text));
  if (typeof strict !== "object" || strict === null) return Object.is(fast, strict);
  if (Array.isArray(strict)) return Array.isArray(fast) && fast.length === strict.length && strict.every((x, i) => same(fast[i], x));
  if (typeof fast !== "object" || fast === null || Array.isArray(fast)) return false;
  const keys = Object.keys(strict);
  return keys.length === Object.keys(fast).length && keys.every((k) => Object.hasOwn(fast, k) && same(fast[k], strict[k]));
}

const attempt = (fn) => {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    return { ok: false, error: e };
  }
};

const stats = { texts: 0, fast: 0, strictOnly: 0, refusedByBoth: 0, duplicateKeys: 0, messages: 0, messagesRefused: 0 };

function checkText(text) {
  stats.texts++;
  const fast = parseFast(text);
  const strict = attempt(() => parseJson(text));
  if (!strict.ok && String(strict.error.message).includes("duplicate key")) stats.duplicateKeys++;
  if (fast === undefined) {
    if (strict.ok) stats.strictOnly++;
    else stats.refusedByBoth++;
    return undefined;
  }
  stats.fast++;
  if (!strict.ok) return `the fast path takes what the strict parser refuses (${strict.error.message})`;
  if (!same(fast, strict.value)) return "the fast path's value differs from the strict parser's";
  return undefined;
}

/** A message's text with one of its keys given again: refused on every path. */
function checkMessage() {
  const m = fromJson(T, {
    optionalInt32: below(1000), optionalString: pick(["a:b", "::", "x", ""]),
    optionalNestedMessage: { a: below(9) }, repeatedString: [pick(["", ":"]), "y"], mapStringString: { "k:": "v" },
    optionalValue: { a: [1, ":"] },
  });
  const text = toJsonString(T, m);
  // the key to give again, and escaped colons (in a string) to balance a count that ignores escapes
  const keys = [...text.matchAll(/"(\w+)":/g)];
  const key = pick(keys);
  const start = key.index;
  let end = start + key[0].length;
  for (let depth = 0; end < text.length; end++) { // the end of the member's value
    const c = text[end];
    if (c === '"') end = text.indexOf('"', end + 1);
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") { if (depth-- === 0) break; }
    else if (c === "," && depth === 0) break;
  }
  const member = text.slice(start, end);
  const escapes = "\\u003a".repeat(1 + below(3));
  const twice = `${text.slice(0, end)},${member}${text.slice(end, -1)},"optionalBytes":"",  "optionalCord":"${escapes}"}`;
  stats.messages++;
  for (const read of [() => fromJsonString(T, twice), () => encodeFromJsonString(T, twice)]) {
    const got = attempt(read);
    if (got.ok) return `a key given twice is taken: ${twice}`;
    if (!(got.error instanceof JsonError)) return `a key given twice fails with ${got.error}`;
  }
  stats.messagesRefused++;
  return checkText(twice);
}

const deadline = Date.now() + seconds * 1000;
console.log(`JSON fast path against the strict parser for ${seconds} s, seed ${seed}`);
mkdirSync(outDir, { recursive: true });
while (Date.now() < deadline) {
  for (let batch = 0; batch < 200; batch++) {
    let text = object(0);
    for (let n = below(3); n > 0; n--) text = mutate(text);
    if (rand() < 0.3) text = ` ${text}\n`;
    let problem = checkText(text);
    if (problem === undefined && batch % 10 === 0) problem = checkMessage();
    if (problem !== undefined) {
      const file = path.join(outDir, `difference-${seed}-${stats.texts}.json`);
      writeFileSync(file, JSON.stringify({ seed, text, problem }, null, 1));
      console.error(`DIFFERENCE: ${problem}\n${text}\n(saved to ${file})`);
      console.log(stats);
      process.exit(1);
    }
  }
}
console.log(Object.entries(stats).map(([k, v]) => `${k}: ${v.toLocaleString("en")}`).join("\n"));
