// Message types whose facades are interpreted from the schema instead of generated per field:
// what hppproto-gen writes for `option optimize_for = CODE_SIZE` (and --optimize_for code_size),
// and what runtime schemas (hppproto/codegen's loadSchema) are made of. Plain objects, views,
// builders and encoding behave as generated code's; they are slower, and the code is the runtime's.
import type { Fill } from "../fill.js";
import { MessageType, type Init, type Materializer, type MessageParts } from "../message.js";
import type { Memory } from "../memory.js";
import * as plain from "../plain.js";
import type { Runtime } from "../runtime.js";
import type { SchemaDef } from "../schema.js";
import type { MessageList, MessageView, ViewClass } from "../view.js";
import { messageFiller, messageReader } from "./plain.js";
import { builderClass, listClass, viewClass, type ClassSource } from "./view.js";

const sources = new WeakMap<SchemaDef, ClassSource>();

/** The interpreted parts of a schema's messages, each built on first use and kept with the schema. */
function classSource(def: SchemaDef): ClassSource {
  let src = sources.get(def);
  if (src !== undefined) return src;
  const views: ViewClass<MessageView>[] = [], lists: (new (o: MessageView, d: number, n: number) => MessageList<MessageView>)[] = [];
  const builders: ViewClass<MessageView>[] = [], readers: Materializer<unknown>[] = [], fillers: Fill<never>[] = [];
  // sub-messages are reached through these, so recursive schemas need no ordering
  const readerOf = (i: number): Materializer<never> => (m, p, rt) => (readers[i] ??= messageReader(def, i, readerOf))(m, p, rt) as never;
  const fillerOf = (i: number): Fill<never> => (w, o, p) => (fillers[i] ??= messageFiller(def, i, fillerOf) as Fill<never>)(w, o, p);
  src = {
    def,
    view: (i) => (views[i] ??= viewClass(src!, i)),
    list: (i) => (lists[i] ??= listClass(src!, i)),
    builder: (i) => (builders[i] ??= builderClass(def, i, src!.view(i), src!)),
    reader: (i) => (readers[i] ??= messageReader(def, i, readerOf)),
    filler: (i) => (fillers[i] ??= messageFiller(def, i, fillerOf) as Fill<never>),
  };
  sources.set(def, src);
  return src;
}

/** What generated code uses of another message: the same parts as generated code's, interpreted. */
export interface InterpretedParts<T, V, B> {
  readonly view: ViewClass<V>;
  readonly list: new (owner: MessageView, data: number, length: number) => MessageList<V>;
  readonly read: Materializer<T>;
  readonly readAll: (m: Memory, addr: number, rt: Runtime) => T[];
  readonly fill: Fill<Init<T>>;
  readonly builder: ViewClass<B>;
}

const parts = new WeakMap<SchemaDef, InterpretedParts<unknown, unknown, unknown>[]>();

/**
 * Called by generated code: the parts of message `index` of a schema. Generated modules reach the
 * messages of CODE_SIZE files this way, and interpreted message types are made of them.
 */
export function interpretedParts<T, V, B>(def: SchemaDef, index: number): InterpretedParts<T, V, B> {
  let all = parts.get(def);
  if (all === undefined) parts.set(def, (all = []));
  let p = all[index];
  if (p === undefined) {
    const src = classSource(def);
    const read = src.reader(index);
    p = all[index] = {
      view: src.view(index), list: src.list(index), read, fill: src.filler(index) as Fill<unknown>, builder: src.builder(index),
      readAll: (m, addr, rt) => plain.messages(m, addr, read, rt),
    };
  }
  return p as InterpretedParts<T, V, B>;
}

/**
 * Called by generated code: the builder class of message `index`, extending the generated view
 * class with setters and methods interpreted from the schema. `messages` gives, by message index,
 * the builder class and filler of each message its fields hold (a function: they may be declared
 * later). Only builders come in: a program's readers and views stay its generated ones.
 */
export function interpretedBuilder<B>(
  view: ViewClass<MessageView>, def: SchemaDef, index: number,
  messages: () => Record<number, readonly [ViewClass<MessageView>, Fill<never>]> = () => ({}),
): ViewClass<B> {
  let table: Record<number, readonly [ViewClass<MessageView>, Fill<never>]> | undefined; // made once: add() and mutable() allocate nothing
  const of = (i: number) => {
    const m = (table ??= messages())[i];
    if (m === undefined) throw new Error(`hppproto: generated code gave no builder for message ${def.messages[i]?.name}`);
    return m;
  };
  return builderClass(def, index, view, { builder: (i) => of(i)[0], filler: (i) => (w, o, p) => of(i)[1](w, o, p) }) as unknown as ViewClass<B>;
}

/** Called by generated code (CODE_SIZE): message `index` of a schema, without ProtoJSON. */
export function interpretedType<T, V, B extends V>(def: SchemaDef, index: number): MessageType<T, V, B> {
  const info = def.messages[index]!;
  return new MessageType(info.name, def, index, info.recordSize, interpretedParts<T, V, B>(def, index) as MessageParts<T, V, B>);
}
