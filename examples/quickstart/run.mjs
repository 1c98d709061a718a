// Quick start: generate TypeScript from addressbook.proto, compile it, decode a payload that another
// protobuf implementation (protobufjs) encoded, as views and as plain objects, encode one from a
// plain object and from a builder and let protobufjs read it back, then print and read ProtoJSON.
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const out = `${here}gen`;
rmSync(out, { recursive: true, force: true });

// 1. npx hppproto-gen
execFileSync(process.execPath, [`${here}../../bin/hppproto-gen.mjs`, "--out", `${out}/src`, "-I", here, `${here}addressbook.proto`], { stdio: "inherit" });

// 2. compile the generated TypeScript (a real project would let its own build do this)
writeFileSync(`${out}/tsconfig.json`, JSON.stringify({
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, outDir: "js", rootDir: "src", skipLibCheck: true },
  include: ["src"],
}));
execFileSync(process.execPath, [`${here}../../node_modules/typescript/bin/tsc`, "-p", out], { stdio: "inherit" });

// 3. a payload from elsewhere: protobufjs encodes an address book
const root = protobuf.loadSync(`${here}addressbook.proto`);
const AddressBookPb = root.lookupType("tutorial.AddressBook");
const payload = AddressBookPb.encode(AddressBookPb.fromObject({
  people: [
    { name: "Ada Lovelace", id: 1, email: "ada@example.com", phones: [{ number: "+44 20 7946 0000", type: 1 }], scores: [9.5, 8.25], counters: { logins: "12345678901234" } },
    { name: "Alan Turing", id: 2, phones: [{ number: "+44 161 496 0000", type: 3 }], scores: [7] },
  ],
})).finish();

// 4. decode it with hppproto
const { init, toJsonString, fromJsonString, builder } = await import("hppproto");
const { AddressBook } = await import(`${out}/js/addressbook_pb.js`);
await init();

const book = AddressBook.view(payload); // zero-copy: nothing is read until asked
for (const person of book.people) {
  console.log(`${person.id}: ${person.name} <${person.email || "no email"}>`);
  for (const phone of person.phones) console.log(`   phone ${phone.number} (type ${phone.type})`);
  console.log(`   scores ${person.scores.constructor.name}[${Array.from(person.scores).join(", ")}]`);
  for (const [k, v] of person.counters) console.log(`   ${k} = ${v}`);
}
const plain = AddressBook.decode(payload); // plain objects that own their data
console.log("plain:", JSON.stringify(plain, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)));

// 5. encode: from a plain object, and with a builder set in place; protobufjs reads both back
const fromObject = AddressBook.encode({ people: [{ name: "Grace Hopper", id: 3, scores: [10], counters: { talks: 42n } }] });
const b = builder(AddressBook);
const grace = b.addPeople();
grace.name = "Grace Hopper";
grace.id = 3;
grace.scores = new Float64Array([10]); // packed doubles: one copy
grace.counters = { talks: 42n };
const fromBuilder = AddressBook.encode(b);
const back = AddressBookPb.toObject(AddressBookPb.decode(fromBuilder), { longs: String });
console.log(`encoded ${fromObject.length} bytes; builder bytes identical: ${Buffer.compare(fromObject, fromBuilder) === 0}; protobufjs reads:`, JSON.stringify(back));
if (Buffer.compare(fromObject, fromBuilder) !== 0 || back.people[0].name !== "Grace Hopper") throw new Error("encode mismatch");

// 6. ProtoJSON, both ways; protobufjs reads ours the same
const json = toJsonString(AddressBook, book);
console.log("json:", json);
const fromJson = fromJsonString(AddressBook, json);
if (toJsonString(AddressBook, fromJson) !== json) throw new Error("JSON round trip mismatch");
const pbJson = JSON.stringify(AddressBookPb.toObject(AddressBookPb.fromObject(JSON.parse(json)), { longs: String, enums: String }));
if (pbJson !== json) throw new Error("protobufjs reads our JSON differently");
console.log("JSON round trip identical, and protobufjs reads it the same");
