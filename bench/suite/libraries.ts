// Each library's codec for each benchmark message, called the way that library's documentation
// shows. Everything runs on the same payload bytes.
import { create as esCreate, fromBinary, fromJsonString as esFromJsonString, toBinary, toJsonString as esToJsonString, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { PbfReader, PbfWriter } from "pbf";
import protobuf from "protobufjs/minimal.js";

import * as hpp2 from "../gen/hppproto/benchmark_messages_proto2_pb.js";
import * as hpp3 from "../gen/hppproto/benchmark_messages_proto3_pb.js";
import * as hppTick from "../gen/hppproto/tick_pb.js";
import * as hppArrays from "../gen/hppproto/arrays_pb.js";
import * as hppTile from "../gen/hppproto/tile_pb.js";
import * as hppSpan from "../gen/hppproto/span_pb.js";
import * as hppSmall2 from "../gen/hppproto-code-size/benchmark_messages_proto2_pb.js";
import * as hppSmall3 from "../gen/hppproto-code-size/benchmark_messages_proto3_pb.js";
import * as hppSmallTick from "../gen/hppproto-code-size/tick_pb.js";
import * as hppSmallArrays from "../gen/hppproto-code-size/arrays_pb.js";
import * as hppSmallTile from "../gen/hppproto-code-size/tile_pb.js";
import * as hppSmallSpan from "../gen/hppproto-code-size/span_pb.js";
import { benchmarks as pbjsBench, bench as pbjsOwn } from "../gen/protobufjs/messages.js";
import * as tsp2 from "../gen/ts-proto/benchmark_messages_proto2.js";
import * as tsp3 from "../gen/ts-proto/benchmark_messages_proto3.js";
import * as tspTick from "../gen/ts-proto/tick.js";
import * as tspArrays from "../gen/ts-proto/arrays.js";
import * as tspTile from "../gen/ts-proto/tile.js";
import * as tspSpan from "../gen/ts-proto/span.js";
import * as es2 from "../gen/protobuf-es/benchmark_messages_proto2_pb.js";
import * as es3 from "../gen/protobuf-es/benchmark_messages_proto3_pb.js";
import * as esTick from "../gen/protobuf-es/tick_pb.js";
import * as esArrays from "../gen/protobuf-es/arrays_pb.js";
import * as esTile from "../gen/protobuf-es/tile_pb.js";
import * as esSpan from "../gen/protobuf-es/span_pb.js";
import * as pbf2 from "../gen/pbf/benchmark_messages_proto2.js";
import * as pbf3 from "../gen/pbf/benchmark_messages_proto3.js";
import * as pbfTick from "../gen/pbf/tick.js";
import * as pbfArrays from "../gen/pbf/arrays.js";
import * as pbfTile from "../gen/pbf/tile.js";
import * as pbfSpan from "../gen/pbf/span.js";
import type { Int64 } from "./content.js";
import { makeSetter, makeWriterEncoder } from "./writers.js";
import { Writer, toJsonString, fromJsonString, encodeFromJsonString, decodeToJsonString, create, builder } from "hppproto";

export type MessageName = "gm1p2" | "gm1p3" | "tick" | "doubles" | "int32s" | "uint64s" | "tile" | "traces";
export const libraries = ["hppproto", "hppproto-code-size", "protobufjs", "ts-proto", "protobuf-es", "pbf"] as const;
export type Library = (typeof libraries)[number];

/** What a library can do with one message type; absent members are operations it does not have. */
export interface Codec {
  /** 64-bit integers as this library takes them when building a message. */
  int64: Int64;
  /** Field names: protoc's JSON names, or the .proto names (pbf). */
  naming: "camel" | "proto";
  /** Source that indexes a repeated field; `numeric` for repeated numbers and bools. */
  listAt: (list: string, i: string, numeric: boolean) => string;
  decode(bytes: Uint8Array): any;
  /** decode() as the generated function of its own (hppproto's decodeX: a generated decoder of plain objects where the message has one). */
  decodeFunction?(bytes: Uint8Array): any;
  /** A zero-copy view (hppproto). */
  view?(bytes: Uint8Array): any;
  /** Every message of a length-delimited buffer, each passed to `each`. */
  delimited(bytes: Uint8Array, each: (message: any) => void): void;
  /** The same as plain objects, where delimited() gives views (hppproto). */
  decodeDelimited?(bytes: Uint8Array, each: (message: any) => void): void;
  encode?(message: any): Uint8Array;
  /** Build this library's message from a content literal (the part of set+encode before encoding). */
  build?(literal: any): any;
  /** Set + encode through a builder made once and reused (hppproto). */
  builderEncoder?(): (literal: any) => Uint8Array;
  /** Set + encode with a streaming writer made once and reused, fields written by hand (hppproto). */
  writerEncoder?(): (literal: any) => Uint8Array;
  toJson?(message: any): string;
  fromJson?(json: string): any;
  /** ProtoJSON text to wire bytes without a message object in between (hppproto); peers: fromJson + encode. */
  jsonToBinary?(json: string): Uint8Array;
  /** Wire bytes to ProtoJSON text without a message object in between (hppproto); peers: decode + toJson. */
  binaryToJson?(bytes: Uint8Array): string;
}

const index = (list: string, i: string) => `${list}[${i}]`;
const bigint: Int64 = (s) => BigInt(s);

function hppproto(type: any, desc: DescMessage, decodeFunction?: (b: Uint8Array) => any): Codec {
  return {
    int64: bigint,
    naming: "camel",
    // repeated numbers are typed arrays, other repeated fields ListViews
    listAt: (list, i, numeric) => (numeric ? `${list}[${i}]` : `${list}.get(${i})`),
    decode: (b) => type.decode(b),
    ...(decodeFunction === undefined ? {} : { decodeFunction }),
    view: (b) => type.view(b),
    // one message at a time, as the peers' batch readers hand them out
    delimited: (b, each) => type.forEachViewDelimited(b, each),
    decodeDelimited: (b, each) => type.forEachDelimited(b, each),
    encode: (m) => type.encode(m),
    toJson: (m) => toJsonString(type, m),
    fromJson: (s) => fromJsonString(type, s),
    jsonToBinary: (s) => encodeFromJsonString(type, s),
    binaryToJson: (b) => decodeToJsonString(type, b),
    // plain objects are what encode() takes: nothing to build
    build: (literal) => literal,
    builderEncoder: () => {
      const b = builder(type);
      const set = makeSetter(desc);
      return (literal) => {
        b.$clear();
        set(b, literal);
        return type.encode(b);
      };
    },
    writerEncoder: () => {
      const w = new Writer();
      const write = makeWriterEncoder(desc);
      return (literal) => {
        write(w.reset(), literal);
        return w.finish().slice(); // a copy, as encode() returns: the writer's buffer is reused
      };
    },
  };
}

function protobufjs(type: any): Codec {
  return {
    int64: (s) => s,
    naming: "camel",
    listAt: index,
    decode: (b) => type.decode(b),
    delimited: (b, each) => {
      const r = protobuf.Reader.create(b);
      while (r.pos < r.len) each(type.decodeDelimited(r));
    },
    encode: (m) => type.encode(m).finish(),
    build: (literal) => type.create(literal),
    toJson: (m) => JSON.stringify(m.toJSON()),
    fromJson: (s) => type.fromObject(JSON.parse(s)),
  };
}

function tsProto(type: any): Codec {
  return {
    int64: bigint,
    naming: "camel",
    listAt: index,
    decode: (b) => type.decode(b),
    delimited: (b, each) => {
      const r = new BinaryReader(b);
      while (r.pos < r.len) each(type.decode(r, r.uint32()));
    },
    encode: (m) => type.encode(m).finish(),
    build: (literal) => type.fromPartial(literal),
    toJson: (m) => JSON.stringify(type.toJSON(m)),
    fromJson: (s) => type.fromJSON(JSON.parse(s)),
  };
}

function protobufEs(schema: DescMessage): Codec {
  return {
    int64: bigint,
    naming: "camel",
    listAt: index,
    decode: (b) => fromBinary(schema, b),
    delimited: (b, each) => {
      const r = new BinaryReader(b);
      while (r.pos < r.len) {
        const n = r.uint32();
        each(fromBinary(schema, b.subarray(r.pos, r.pos + n)));
        r.pos += n;
      }
    },
    encode: (m) => toBinary(schema, m),
    build: (literal) => esCreate(schema, literal),
    toJson: (m) => esToJsonString(schema, m),
    fromJson: (s) => esFromJsonString(schema, s),
  };
}

function pbf(read: (p: PbfReader, end?: number) => any, write: (m: any, p: PbfWriter) => void): Codec {
  return {
    // pbf reads and writes 64-bit integers as JS numbers (exact only up to 2^53)
    int64: (s) => Number(s),
    naming: "proto",
    listAt: index,
    decode: (b) => read(new PbfReader(b)),
    delimited: (b, each) => {
      const p = new PbfReader(b);
      while (p.pos < p.length) {
        const end = p.readVarint() + p.pos;
        each(read(p, end));
      }
    },
    encode: (m) => {
      const p = new PbfWriter();
      write(m, p);
      return p.finish();
    },
    build: (literal) => literal,
  };
}

export function codec(lib: Library, message: MessageName): Codec {
  switch (lib) {
    case "hppproto":
      return hppproto({
        gm1p2: hpp2.GoogleMessage1, gm1p3: hpp3.GoogleMessage1, tick: hppTick.Tick, doubles: hppArrays.Doubles, int32s: hppArrays.Int32s,
        uint64s: hppArrays.Uint64s, tile: hppTile.Tile, traces: hppSpan.TracesData,
      }[message], descOf(message), {
        gm1p2: hpp2.decodeGoogleMessage1, gm1p3: hpp3.decodeGoogleMessage1, tick: hppTick.decodeTick, doubles: hppArrays.decodeDoubles,
        int32s: hppArrays.decodeInt32s, uint64s: hppArrays.decodeUint64s, tile: hppTile.decodeTile, traces: hppSpan.decodeTracesData,
      }[message]);
    case "hppproto-code-size":
      return hppproto({
        gm1p2: hppSmall2.GoogleMessage1, gm1p3: hppSmall3.GoogleMessage1, tick: hppSmallTick.Tick, doubles: hppSmallArrays.Doubles,
        int32s: hppSmallArrays.Int32s, uint64s: hppSmallArrays.Uint64s, tile: hppSmallTile.Tile, traces: hppSmallSpan.TracesData,
      }[message], descOf(message));
    case "protobufjs":
      return protobufjs({
        gm1p2: pbjsBench.proto2.GoogleMessage1, gm1p3: pbjsBench.proto3.GoogleMessage1, tick: pbjsOwn.tick.Tick,
        doubles: pbjsOwn.arrays.Doubles, int32s: pbjsOwn.arrays.Int32s, uint64s: pbjsOwn.arrays.Uint64s,
        tile: pbjsOwn.tile.Tile, traces: pbjsOwn.span.TracesData,
      }[message]);
    case "ts-proto":
      return tsProto({
        gm1p2: tsp2.GoogleMessage1, gm1p3: tsp3.GoogleMessage1, tick: tspTick.Tick, doubles: tspArrays.Doubles, int32s: tspArrays.Int32s,
        uint64s: tspArrays.Uint64s, tile: tspTile.Tile, traces: tspSpan.TracesData,
      }[message]);
    case "protobuf-es":
      return protobufEs(descOf(message));
    case "pbf": {
      const [read, write] = {
        gm1p2: [pbf2.readGoogleMessage1, pbf2.writeGoogleMessage1], gm1p3: [pbf3.readGoogleMessage1, pbf3.writeGoogleMessage1],
        tick: [pbfTick.readTick, pbfTick.writeTick], doubles: [pbfArrays.readDoubles, pbfArrays.writeDoubles],
        int32s: [pbfArrays.readInt32s, pbfArrays.writeInt32s], uint64s: [pbfArrays.readUint64s, pbfArrays.writeUint64s],
        tile: [pbfTile.readTile, pbfTile.writeTile], traces: [pbfSpan.readTracesData, pbfSpan.writeTracesData],
      }[message] as [any, any];
      return pbf(read, write);
    }
  }
}

/** protobuf-es's descriptor: the suite also uses it to list the fields a reader touches. */
export function descOf(message: MessageName): DescMessage {
  return {
    gm1p2: es2.GoogleMessage1Schema, gm1p3: es3.GoogleMessage1Schema, tick: esTick.TickSchema,
    doubles: esArrays.DoublesSchema, int32s: esArrays.Int32sSchema, uint64s: esArrays.Uint64sSchema,
    tile: esTile.TileSchema, traces: esSpan.TracesDataSchema,
  }[message];
}
