// Type-checked, not run (codegen.test.ts runs tsc on it): the public functions that take a message
// type and its messages infer their types from generated types; @ts-expect-error lines must fail.
import {
 anyIs, anyPack, anyUnpack, clearExtension, decodeStream, DelimitedReader, fieldMaskApply, fieldMaskMerge, fromText, getExtension, hasExtension, Registry,
 setExtension, timestampFromDate, toText, create, merge,
 Arena, builder, clone, equals, isFieldSet, clearField, isMessage, fromJsonString, toJsonString, fromJson, toJson, encodeFromJsonString, fieldsOf, oneofsOf, findField } from "hppproto";
import * as conf2 from "../gen/conformance/google/protobuf/test_messages_proto2_pb.js";
import { TestAllTypesProto3, decodeTestAllTypesProto3, encodeTestAllTypesProto3, viewTestAllTypesProto3, type TestAllTypesProto3View } from "../gen/conformance/google/protobuf/test_messages_proto3_pb.js";
import { Timestamp } from "../gen/conformance/google/protobuf/timestamp_pb.js";
import { Wide as WideAsStrings } from "../gen/wide_string/wide_pb.js";
import { Wide } from "../gen/wide/wide_pb.js";

const T = conf2.TestAllTypesProto2;
const registry = new Registry(T, [conf2.ForeignMessageProto2], Timestamp);
const any = anyPack(Timestamp, timestampFromDate(new Date()));
const seconds: bigint | undefined = anyUnpack(any, Timestamp)?.seconds;
const unknownType: unknown = anyUnpack(any, registry);
anyUnpack(any, [T, Timestamp]);
anyIs(any, Timestamp);
// @ts-expect-error a Timestamp is not a TestAllTypesProto2
anyPack(T, timestampFromDate(new Date()) as { seconds: bigint; nanos: number; foo: string });

const m = create(T);
const masked: conf2.TestAllTypesProto2 = fieldMaskApply(T, m, { paths: ["optional_int32"] });
const text = toText(T, T.view(T.encode(m)), { registry });
const back: conf2.TestAllTypesProto2 = fromText(T, text, { registry });

const level: number | undefined = getExtension(m, conf2.extension_int32);
setExtension(m, conf2.extension_int32, 5);
// @ts-expect-error the extension holds an int32
setExtension(m, conf2.extension_int32, "x");
hasExtension(T.view(new Uint8Array(0)), conf2.extension_int32);
clearExtension(m, conf2.groupfield);
const group: number | undefined = getExtension(m, conf2.groupfield)?.groupInt32;
// @ts-expect-error a TestAllTypesProto3 is not what extension_int32 extends
getExtension(create(TestAllTypesProto3), conf2.extension_int32);

const asStrings = TestAllTypesProto3.decode(new Uint8Array(0), { int64: "string" });
const s: string = asStrings.optionalInt64;
const list: string[] = asStrings.repeatedUint64;
const n: number = TestAllTypesProto3.decode(new Uint8Array(0), { int64: "number" }).optionalInt64;
// @ts-expect-error the default form is bigint
const wrong: string = TestAllTypesProto3.decode(new Uint8Array(0)).optionalInt64;
// every 64-bit field takes the asked form, whatever its generated one (--int64 string, jstype), at any depth
const asked = Wide.decode(new Uint8Array(0), { int64: "number" });
const numbers: [number | undefined, number | undefined, number | undefined, number[], number | undefined] = [asked.i64, asked.asString, asked.asNumber, asked.stringsList, asked.sub?.id];
const fromStrings = WideAsStrings.decode(new Uint8Array(0), { int64: "bigint" });
const bigints: [bigint | undefined, bigint | undefined, bigint[]] = [fromStrings.i64, fromStrings.asString, fromStrings.packedI64];
// @ts-expect-error asked for bigints, a jstype = JS_STRING field holds one too
const notString: string | undefined = fromStrings.asString;
const generated: [string | undefined, string | undefined, number | undefined] = [WideAsStrings.decode(new Uint8Array(0)).i64, Wide.decode(new Uint8Array(0)).asString, Wide.decode(new Uint8Array(0)).asNumber];

// streams over a message with enums, 64-bit integers, oneofs and maps
const reader = new DelimitedReader(T);
const pushed: conf2.TestAllTypesProto2[] = reader.push(new Uint8Array(0));
const pushedViews: conf2.TestAllTypesProto2View[] = reader.pushViews(new Uint8Array(0));
// @ts-expect-error push() gives plain objects, not views
const notViews: conf2.TestAllTypesProto2View[] = reader.push(new Uint8Array(0));
async function streamed(source: AsyncIterable<Uint8Array>): Promise<bigint | undefined> {
  for await (const x of decodeStream(TestAllTypesProto3, source)) return x.optionalInt64;
  return undefined;
}

// what encode() takes partially, merge(), create() and toText() take partially too (nested included)
merge(T, m, { optionalInt32: 1, optionalNestedMessage: { a: 2 } });
create(T, { optionalNestedMessage: { a: 2 }, oneofField: { case: "oneofUint32", value: 1 } });
toText(T, { optionalInt64: 5n, optionalNestedMessage: {} });
fieldMaskMerge(T, { paths: ["optional_int32"] }, m, m);
// @ts-expect-error a oneof's case stays required
merge(T, m, { oneofField: { value: 1 } });

// the message functions infer from the type they take
const b: conf2.TestAllTypesProto2Builder = builder(T, m);
b.optionalInt32 = 5;
const copy: conf2.TestAllTypesProto2 = clone(T, T.view(T.encode(b)));
const same: boolean = equals(T, m, copy) && isFieldSet(T, copy, "optionalInt32");
const cleared: conf2.TestAllTypesProto2 = clearField(T, copy, "optionalInt32");
const maybe: unknown = copy;
const guarded: number | undefined = isMessage(T, maybe) ? (maybe as conf2.TestAllTypesProto2).optionalInt32 : undefined;
const fromText2: conf2.TestAllTypesProto2 = fromJsonString(T, toJsonString(T, copy));
const fromValue: conf2.TestAllTypesProto2 = fromJson(T, toJson(T, T.view(encodeFromJsonString(T, "{}"))));
const fieldNames: string[] = fieldsOf(T).map((f) => f.name).concat(oneofsOf(T).map((o) => o.name), findField(T, 1)?.name ?? []);
// @ts-expect-error a TestAllTypesProto3 is not a TestAllTypesProto2
equals(T, m, create(TestAllTypesProto3));
// @ts-expect-error the builder of a TestAllTypesProto2 has no such field
builder(T).noSuchField = 1;

// decode(), view() and encode() as functions of their own
const decoded: TestAllTypesProto3 = decodeTestAllTypesProto3(new Uint8Array(0));
const viewed: TestAllTypesProto3View = viewTestAllTypesProto3(new Uint8Array(0), new Arena());
const encoded: Uint8Array = encodeTestAllTypesProto3({ optionalInt32: 1, optionalNestedMessage: { a: 2 } });
// @ts-expect-error encodeX takes plain objects of its message
encodeTestAllTypesProto3({ optionalInt32: "1" });
// @ts-expect-error and no view: views are encoded by the message type's encode()
encodeTestAllTypesProto3(viewed);
// @ts-expect-error the int64 option is the message type's decode()'s
decodeTestAllTypesProto3(new Uint8Array(0), { int64: "string" });

export { decoded, encoded, seconds, unknownType, masked, back, level, group, s, list, n, wrong, numbers, bigints, notString, generated, pushed, pushedViews, notViews, streamed, same, cleared, guarded, fromText2, fromValue, fieldNames, stillReadable };

// The declarations hold the API, not the runtime's internals (tsconfig.build.json: stripInternal)
// @ts-expect-error a message type's generated parts are internal
T.parts;
// @ts-expect-error so is its schema
T.schemaDef;
// @ts-expect-error and how the codec takes a record of it
T.withRecord;
// @ts-expect-error a view's checked memory access is internal
T.view(new Uint8Array(0)).$mem();
// @ts-expect-error an arena's address in linear memory is internal
new Arena().ptr;
const stillReadable: boolean = T.view(new Uint8Array(0)).$valid;
