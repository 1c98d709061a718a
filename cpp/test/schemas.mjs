// `node cpp/test/schemas.mjs OUT.hpp`: the C++ tests' schemas, declared as generated code declares
// a schema (a SchemaSource) and laid out by the runtime's own layout code (ts/layout.ts, through
// defineSchema) for both pointer widths the tests build for: native 64-bit and wasm32. The header
// holds each schema's table and every field's offset and presence, so no record layout is
// computed in C++. CMake runs this before building the tests; needs `npm run build` first.
import { writeFileSync } from "node:fs";
import { defineSchema, FieldFlag, FieldType as T, Label as L, SourceBits, SourceFlags } from "../../dist/ts/schema.js";
import { wasm32 } from "../../dist/ts/layout.js";
import { schemaTable } from "../../dist/ts/table.js";

/** 64-bit native: a pointer and the slots are 8-byte aligned (hppproto/record.hpp). */
const native64 = { pointer: 8, bytesSlot: 16, arraySlot: 16 };

const utf8 = FieldFlag.ValidateUtf8, closed = FieldFlag.ClosedEnum, packed = FieldFlag.Packed, required = FieldFlag.Required;

/** A field: number, type, label, flags, the message or enum it refers to, its oneof (1-based, 0: none). */
const f = (number, type, label = L.Implicit, flags = 0, ref = -1, oneof = 0) => ({ number, type, label, flags, ref, oneof });
const message = (fields, messageSet = false) => ({ fields, messageSet });

// the record the decoder and encoder tests fill: every type and label
const everything = (extra) => [
  f(1, T.Int32), f(2, T.Int64), f(3, T.Uint32), f(4, T.Uint64), f(5, T.Sint32), f(6, T.Sint64), f(7, T.Fixed32), f(8, T.Fixed64),
  f(9, T.Sfixed32), f(10, T.Sfixed64), f(11, T.Float), f(12, T.Double), f(13, T.Bool), f(14, T.String, L.Implicit, utf8), f(15, T.Bytes),
  f(16, T.Enum, L.Implicit, closed, 0), f(17, T.Enum, L.Implicit, 0, 0),
  f(18, T.Message, L.Explicit, 0, 1), f(19, T.Group, L.Explicit, 0, 2),
  ...extra,
];

const schemas = {
  decoder: {
    enums: [[0, 1, 2]],
    messages: [
      message(everything([
        f(20, T.Int32, L.Repeated), f(21, T.Double, L.Repeated), f(22, T.String, L.Repeated, utf8), f(23, T.Message, L.Repeated, 0, 1),
        f(24, T.Sint64, L.Repeated), f(25, T.Enum, L.Repeated, closed, 0), f(26, T.Message, L.Map, 0, 3),
        f(27, T.String, L.Oneof, utf8, -1, 1), f(28, T.Message, L.Oneof, 0, 1, 1),
        f(29, T.String, L.Explicit), f(30, T.Bool, L.Repeated), f(31, T.Group, L.Repeated, 0, 2), f(32, T.Message, L.Explicit, 0, 0),
      ])),
      message([f(1, T.Int32), f(2, T.String)]),
      message([f(1, T.Int32)]),
      message([f(1, T.String), f(2, T.Int32)]), // a map entry
      message([f(1, T.Int32, L.Explicit, required), f(2, T.Int32, L.Explicit)]),
    ],
  },
  encoder: {
    enums: [[0, 1, 2]],
    messages: [
      message(everything([
        f(20, T.Int32, L.Repeated), f(21, T.Double, L.Repeated, packed), f(22, T.String, L.Repeated, utf8), f(23, T.Message, L.Repeated, 0, 1),
        f(24, T.Sint64, L.Repeated, packed), f(25, T.Enum, L.Repeated, closed | packed, 0), f(26, T.Message, L.Map, 0, 3),
        f(27, T.String, L.Oneof, utf8, -1, 1), f(28, T.Message, L.Oneof, 0, 1, 1),
        f(29, T.String, L.Explicit), f(30, T.Bool, L.Repeated, packed), f(31, T.Group, L.Repeated, 0, 2), f(32, T.Int32, L.Explicit),
        f(33, T.Int32, L.Repeated, packed), f(34, T.Double),
      ])),
      message([f(1, T.Int32), f(2, T.String)]),
      message([f(1, T.Int32)]),
      message([f(1, T.String), f(2, T.Int32)]),
      message([f(1, T.Int32, L.Explicit, required), f(2, T.Message, L.Explicit, 0, 4)]),
      message([f(1, T.Int32), f(2, T.Message, L.Explicit, 0, 4)]),
      message([f(4, T.Message, L.Explicit, 0, 1), f(1547769, T.Message, L.Explicit, 0, 2)], true),
    ],
  },
  // a map whose values have a required field: value, entry, the message with the map
  mapOfRequired: {
    enums: [],
    messages: [message([f(1, T.Int32, L.Explicit, required)]), message([f(1, T.Int32), f(2, T.Message, L.Implicit, 0, 0)]), message([f(1, T.Message, L.Map, 0, 1)])],
  },
  // the schema tests', valid and not (the validator must refuse those)
  simple: { enums: [], messages: [message([f(1, T.Int32), f(2, T.String, L.Explicit)])] },
  sparse: { enums: [], messages: [message([f(1, T.Int32), f(5000, T.Int64), f(536870911, T.Bool)])] },
  noSuchMessage: { enums: [], messages: [message([f(1, T.Message, L.Explicit, 0, 7)])] },
  noSuchEnum: { enums: [], messages: [message([f(1, T.Enum, L.Implicit, closed, 0)])] },
  requiredWithoutPresence: { enums: [], messages: [message([f(1, T.Int32, L.Implicit, required)])] },
  twoValues: { enums: [[1, 3]], messages: [] },
  map: { enums: [], messages: [message([f(1, T.String), f(2, T.Int32)]), message([f(1, T.Message, L.Map, 0, 0)])] },
  mapDoubleKey: { enums: [], messages: [message([f(1, T.Double), f(2, T.Int32)]), message([f(1, T.Message, L.Map, 0, 0)])] },
  mapThreeFields: { enums: [], messages: [message([f(1, T.String), f(2, T.Int32), f(3, T.Int32)]), message([f(1, T.Message, L.Map, 0, 0)])] },
  oneofAndRecursion: { enums: [], messages: [message([f(1, T.String, L.Oneof, 0, -1, 1), f(2, T.Message, L.Oneof, 0, 0, 1), f(3, T.Message, L.Repeated, 0, 0)])] },
  oneofInt64s: { enums: [], messages: [message([f(1, T.Int64, L.Oneof, 0, -1, 1), f(2, T.Int64, L.Oneof, 0, -1, 1)])] },
  messageSet: { enums: [], messages: [message([f(1, T.Int32)]), message([f(4, T.Message, L.Explicit, 0, 0)], true)] },
  messageSetScalar: { enums: [], messages: [message([f(4, T.Int32, L.Explicit)], true)] },
  messageSetLowNumber: { enums: [], messages: [message([f(1, T.Int32)]), message([f(3, T.Message, L.Explicit, 0, 0)], true)] },
};

/** The schema as generated code declares it (ts/schema.ts's SchemaSource). */
function source({ enums, messages }) {
  const out = [0, enums.length];
  enums.forEach((values, i) => out.push(`e${i}`, 1, values.length, ...values.flatMap((v) => [`v${v}`, v])));
  out.push(messages.length);
  messages.forEach((m, i) => {
    const oneofs = Math.max(0, ...m.fields.map((x) => x.oneof));
    out.push(`m${i}`, m.messageSet ? SourceFlags.MessageSet : 0, oneofs);
    for (let o = 1; o <= oneofs; o++) out.push(`o${o}`, "");
    out.push(m.fields.length);
    for (const x of m.fields) {
      out.push(x.number, x.type | (x.label << SourceBits.LabelShift) | (x.flags << SourceBits.FlagsShift), `f${x.number}`);
      if (x.ref >= 0) out.push(x.ref);
      if (x.oneof) out.push(x.oneof - 1);
    }
  });
  return out;
}

function declarations(sizes) {
  const lines = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const def = defineSchema(source(schema), undefined, [], sizes);
    lines.push(`inline const TestSchema ${name} = {`, `    {${[...schemaTable(def)].join(", ")}},`, "    {");
    for (const m of def.messages) {
      lines.push(`        {${m.recordSize}, {${m.fields.map((x) => `{${x.number}, ${x.offset}, ${x.presence}}`).join(", ")}}},`);
    }
    lines.push("    }};");
  }
  return lines;
}

const [out] = process.argv.slice(2);
writeFileSync(out, [
  "// Generated by cpp/test/schemas.mjs: the tests' schema tables and record layouts, from ts/layout.ts.",
  "#pragma once",
  "#include <cstdint>",
  '#include "test_schema.hpp"',
  "",
  "namespace hppproto::test::schemas {",
  "#if UINTPTR_MAX == 0xffffffffu",
  ...declarations(wasm32),
  "#else",
  ...declarations(native64),
  "#endif",
  "}  // namespace hppproto::test::schemas",
  "",
].join("\n"));
