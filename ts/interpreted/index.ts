// Message types whose facades are interpreted from the schema instead of generated per field:
// what hppproto-gen writes for `option optimize_for = CODE_SIZE` (and --optimize_for code_size),
// and what runtime schemas (hppproto/codegen's loadSchema) are made of. Plain objects, views,
// builders and encoding behave as generated code's; they are slower, and the code is the runtime's.
import type { Fill } from "../fill.js";
import type { Int64Forms } from "../int64.js";
import { MessageType, type AnyMessageType, type Init, type Materializer, type MessageParts } from "../message.js";
import type { Memory } from "../memory.js";
import * as plain from "../plain.js";
import type { Runtime } from "../runtime.js";
import { typeAt, type SchemaDef } from "../schema.js";
import type { ListClass, MessageView, ViewClass } from "../view.js";
import { messageFiller, messageReader } from "./plain.js";
import { builderClass, listClass, viewClass, type ClassSource } from "./view.js";

/** What generated code uses of another message: the same parts as generated code's, interpreted. */
export interface InterpretedParts<T, V, B> {
  readonly view: ViewClass<V>;
  readonly list: ListClass<V>;
  readonly read: Materializer<T>;
  readonly readAll: (m: Memory, addr: number, rt: Runtime) => T[];
  readonly fill: Fill<Init<T>>;
  readonly builder: ViewClass<B>;
}

const sources = new WeakMap<SchemaDef, ClassSource & { parts(index: number): InterpretedParts<unknown, unknown, unknown> }>();

/** The interpreted parts of a schema's messages, each built on first use and kept with the schema. */
function classSource(def: SchemaDef) {
  let src = sources.get(def);
  if (src !== undefined) return src;
  const views: ViewClass<MessageView>[] = [], lists: ListClass<MessageView>[] = [];
  const builders: ViewClass<MessageView>[] = [], readers: Materializer<unknown>[] = [], fillers: Fill<never>[] = [];
  const parts: InterpretedParts<unknown, unknown, unknown>[] = [];
  // sub-messages are reached through calls that look their part up when first called, so recursive schemas need no ordering
  const reader = (i: number): Materializer<unknown> => (readers[i] ??= messageReader(def, i, (j) => (m, p, rt) => reader(j)(m, p, rt) as never));
  const filler = (i: number): Fill<never> => (fillers[i] ??= messageFiller(def, i, (j) => (w, o, p) => filler(j)(w, o, p)) as Fill<never>);
  const made = (i: number): InterpretedParts<unknown, unknown, unknown> => {
    const read = reader(i);
    return { view: self.view(i), list: self.list(i), read, fill: filler(i) as Fill<unknown>, builder: self.builder(i), readAll: (m, addr, rt) => plain.messages(m, addr, read, rt) };
  };
  const self = {
    def, reader, filler,
    view: (i: number): ViewClass<MessageView> => (views[i] ??= viewClass(self, i)),
    list: (i: number) => (lists[i] ??= listClass(self, i)),
    builder: (i: number): ViewClass<MessageView> => (builders[i] ??= builderClass(def, i, self.view(i), self)),
    parts: (i: number) => (parts[i] ??= made(i)),
  };
  sources.set(def, self);
  return self;
}

/**
 * Called by generated code: the parts of message `index` of a schema. Generated modules reach the
 * messages of CODE_SIZE files this way, and interpreted message types are made of them.
 */
export function interpretedParts<T, V, B>(def: SchemaDef, index: number): InterpretedParts<T, V, B> {
  return classSource(def).parts(index) as InterpretedParts<T, V, B>;
}

/** The builder classes interpretedBuilder() made, by schema and message index: one class per message. */
const builtClasses = new WeakMap<SchemaDef, ViewClass<MessageView>[]>();

/**
 * The builder class of message `index`, extending its generated view class with setters and
 * methods interpreted from the schema (made once: generated code's export of it and builder() share
 * it). The messages its fields hold get the builders and fillers of their message types, found in
 * the schema when first needed (their modules register them), else interpreted ones (a bundler
 * dropped a type the program never names).
 */
export function interpretedBuilder<B>(view: ViewClass<MessageView>, def: SchemaDef, index: number): ViewClass<B> {
  let made = builtClasses.get(def);
  if (made === undefined) builtClasses.set(def, (made = []));
  return (made[index] ??= newBuilderClass(view, def, index)) as unknown as ViewClass<B>;
}

function newBuilderClass(view: ViewClass<MessageView>, def: SchemaDef, index: number): ViewClass<MessageView> {
  const found: (readonly [ViewClass<MessageView>, Fill<never>])[] = []; // made once: add() and mutable() allocate nothing
  const of = (i: number) => (found[i] ??= partsOf(def, i));
  return builderClass(def, index, view, { builder: (i) => of(i)[0], filler: (i) => (w, o, p) => of(i)[1](w, o, p) }) as unknown as ViewClass<MessageView>;
}

/** A message type's builder class (generated code asks for its interpreted one with `builder: true`), or undefined without builders. */
export function builderOf(type: AnyMessageType): ViewClass<MessageView> | undefined {
  const { builder, view } = type.parts;
  return builder === true ? interpretedBuilder(view as ViewClass<MessageView>, type.schemaDef, type.index) : (builder as ViewClass<MessageView> | undefined);
}

/** A message type's filler: its generated one, else one interpreted from the schema (in the numbering of the type's own schema). */
export const fillerOf = (type: AnyMessageType): Fill<never> => (type.parts.fill as Fill<never> | undefined) ?? classSource(type.schemaDef).filler(type.index);

/** Message i's builder class and filler: its message type's when loaded with builders, else interpreted ones. */
function partsOf(def: SchemaDef, i: number): readonly [ViewClass<MessageView>, Fill<never>] {
  const type = typeAt(def, i) as AnyMessageType | undefined;
  const builder = type === undefined ? undefined : builderOf(type);
  if (builder !== undefined) {
    // generated code numbers fields and enums as its own module's schema does
    const fill = fillerOf(type!), own = type!.schemaDef, index = type!.index;
    return [builder, own === def ? fill : (w, o, p) => w.fillAs(own, index, fill, o, p)];
  }
  const parts = interpretedParts(def, i);
  return [parts.builder as ViewClass<MessageView>, parts.fill as Fill<never>];
}

/** Called by generated code (CODE_SIZE): message `index` of a schema, without ProtoJSON. */
export function interpretedType<T, V, B extends V, F extends Int64Forms<unknown, unknown, unknown>>(def: SchemaDef, index: number): MessageType<T, V, B, F> {
  return new MessageType(def, index, interpretedParts<T, V, B>(def, index) as MessageParts<T, V, B>);
}
