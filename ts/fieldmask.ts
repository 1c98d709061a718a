// google.protobuf.FieldMask: paths to and from their ProtoJSON string, masks combined (union,
// intersection), and applied to messages (keep only the masked fields; merge only the masked
// fields from one message into another). Free functions, so that a bundle carries only those a
// program calls. Paths are `.proto` field names joined by dots.
import { memberValue } from "./defaults.js";
import { create, merge as mergeInto } from "./create.js";
import { clearField } from "./fields.js";
import { define } from "./json/print.js";
import { fieldMaskFromJson, fieldMaskToJson } from "./json/common.js";
import type { AnyMessageType, PlainOf } from "./message.js";
import { isMessage } from "./interpreted/values.js";
import { Label, typeAt, type FieldInfo, type MessageInfo, type SchemaDef } from "./schema.js";

interface FieldMaskLike {
  readonly paths: readonly string[];
}

type Plain = Record<string, unknown>;

/** A FieldMask's paths as its ProtoJSON string: lowerCamelCase, joined by commas ("a.fooBar,b"). */
export function fieldMaskToString(mask: FieldMaskLike): string {
  return fieldMaskToJson(mask.paths, "FieldMask");
}

/** A FieldMask from its ProtoJSON string. */
export function fieldMaskFromString(s: string): { paths: string[] } {
  return { paths: fieldMaskFromJson(s, "FieldMask") };
}

// ---- masks as sets of paths ----

/** Whether path `p` lies at or under path `q` ("a.b" under "a", not under "ab"). */
const under = (p: string, q: string) => p === q || (p.startsWith(q) && p.charCodeAt(q.length) === 0x2e);

/** Sorted, without duplicates or paths under another path of the set. */
function normalized(paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const p of [...new Set(paths)].sort()) if (out.length === 0 || !under(p, out[out.length - 1]!)) out.push(p);
  return out;
}

/** The paths any of the masks covers, normalized (sorted; a path under another one left out). */
export function fieldMaskUnion(...masks: FieldMaskLike[]): { paths: string[] } {
  return { paths: normalized(masks.flatMap((m) => m.paths)) };
}

/** The paths both masks cover, normalized: "a.b" and "a" give "a.b". */
export function fieldMaskIntersect(a: FieldMaskLike, b: FieldMaskLike): { paths: string[] } {
  const x = normalized(a.paths), y = normalized(b.paths);
  const both = [...x.filter((p) => y.some((q) => under(p, q))), ...y.filter((q) => x.some((p) => under(q, p)))];
  return { paths: normalized(both) };
}

// ---- masks applied to messages ----

/** A mask as a tree: field name -> the paths below it, or null for the whole field. */
type MaskTree = Map<string, MaskTree | null>;

function treeOf(paths: readonly string[]): MaskTree {
  const root: MaskTree = new Map();
  for (const path of normalized(paths)) {
    const names = path.split(".");
    let node = root;
    for (let i = 0; i < names.length - 1; i++) {
      let next = node.get(names[i]!);
      if (next === undefined) node.set(names[i]!, (next = new Map()));
      node = next!; // normalized: no whole field above a path below it
    }
    node.set(names[names.length - 1]!, null);
  }
  return root;
}

/** The field a path step names, or a TypeError naming the path. */
function fieldOf(info: MessageInfo, name: string, at: string): FieldInfo {
  const f = info.fields.find((x) => x.name === name);
  if (f === undefined) throw new TypeError(`FieldMask path ${at}${name}: ${info.name} has no field ${name}`);
  return f;
}

/**
 * Every path of a mask checked against the schema before any data is read (checked as the data
 * was walked, a bad path below a message the source lacked went unnoticed). `intoLists`: paths may
 * go into repeated message fields and maps of messages (fieldMaskApply), else singular messages only.
 */
function checkPaths(def: SchemaDef, mi: number, tree: MaskTree, at: string, intoLists: boolean): void {
  const info = def.messages[mi]!;
  for (const [name, below] of tree) {
    const f = fieldOf(info, name, at);
    if (below === null) continue;
    const path = `FieldMask path ${at}${name}.${[...below.keys()][0]}`;
    let into: number;
    if (!intoLists && (!isMessage(f) || f.label === Label.Repeated || f.label === Label.Map)) throw new TypeError(`${path}: ${name} is not a singular message field`);
    if (f.label === Label.Map) {
      const valueField = def.messages[f.ref]!.fields[1]!;
      if (!isMessage(valueField)) throw new TypeError(`${path}: the values of map ${name} are not messages`);
      into = valueField.ref;
    } else if (isMessage(f)) {
      into = f.ref;
    } else {
      throw new TypeError(`${path}: ${name} is not a message field`);
    }
    checkPaths(def, into, below, `${at}${name}.`, intoLists);
  }
}

/** Sets f in out to v (a oneof member as its oneof's case). */
function put(info: MessageInfo, f: FieldInfo, out: Plain, v: unknown): void {
  if (f.oneof < 0) define(out, f.prop, v);
  else define(out, info.oneofs[f.oneof]!.prop, { case: f.prop, value: v });
}

const typeOf = (def: SchemaDef, index: number) => typeAt(def, index) as AnyMessageType;

/**
 * The message with only the fields a FieldMask names (`.proto` names, "a.b" into message fields),
 * every other field as decode() leaves an absent one: a new plain object sharing nothing with the
 * message. A path into a repeated message field or a map of messages keeps those fields of every
 * element or value. A path that names no field, or goes on past a scalar, is a TypeError.
 */
export function fieldMaskApply<M extends AnyMessageType>(type: M, message: PlainOf<M>, mask: FieldMaskLike): PlainOf<M> {
  const def = type.schemaDef;
  const pick = (mi: number, src: Plain, tree: MaskTree, at: string): Plain => {
    const info = def.messages[mi]!;
    const out: Plain = {};
    for (const [name, below] of tree) {
      const f = fieldOf(info, name, at);
      const value = memberValue(info, f, src);
      if (value === undefined || value === null) continue;
      if (below === null) {
        put(info, f, out, value);
        continue;
      }
      const inner = (v: unknown) => pick(f.label === Label.Map ? def.messages[f.ref]!.fields[1]!.ref : f.ref, v as Plain, below, `${at}${name}.`);
      if (f.label === Label.Map) {
        const map: Plain = {};
        for (const k of Object.keys(value as Plain)) define(map, k, inner((value as Plain)[k]));
        put(info, f, out, map);
      } else {
        put(info, f, out, f.label === Label.Repeated ? Array.from(value as ArrayLike<unknown>, inner) : inner(value));
      }
    }
    return out;
  };
  const tree = treeOf(mask.paths);
  checkPaths(def, type.index, tree, "", true);
  return create(type, pick(type.index, message as Plain, tree, "") as never) as PlainOf<M>;
}

export interface FieldMaskMergeOptions {
  /**
   * Replace each masked field of the target by the source's (cleared when the source's is not
   * set), as an update request's mask means (AIP-134), instead of merging it as protobuf merges
   * (set scalars replace, messages merge, repeated fields append, map entries replace by key).
   */
  replace?: boolean;
}

/**
 * Merges the fields a FieldMask names from `source` into `target` (plain objects of the type), in
 * place, and returns target. Paths go down singular message fields (a path into a repeated field
 * or a map is a TypeError: their elements do not correspond); a message on the way that the
 * target lacks is created.
 */
export function fieldMaskMerge<M extends AnyMessageType>(type: M, mask: FieldMaskLike, source: PlainOf<M>, target: PlainOf<M>, options: FieldMaskMergeOptions = {}): PlainOf<M> {
  const def = type.schemaDef;
  const merge = (mi: number, src: Plain, dst: Plain, tree: MaskTree, at: string): void => {
    const info = def.messages[mi]!;
    const msgType = typeOf(def, mi);
    for (const [name, below] of tree) {
      const f = fieldOf(info, name, at);
      const value = memberValue(info, f, src);
      if (below === null) {
        if (options.replace) clearField(msgType, dst, f.prop);
        if (value === undefined || value === null) continue;
        const only: Plain = {};
        put(info, f, only, value);
        mergeInto(msgType, dst, only);
        continue;
      }
      const present = memberValue(info, f, dst);
      if ((value === undefined || value === null) && (present === undefined || present === null)) continue;
      let inner = present as Plain | undefined | null;
      if (inner === undefined || inner === null) put(info, f, dst, (inner = create(typeOf(def, f.ref)) as Plain));
      merge(f.ref, (value ?? {}) as Plain, inner, below, `${at}${name}.`);
    }
  };
  const tree = treeOf(mask.paths);
  checkPaths(def, type.index, tree, "", false);
  merge(type.index, source as Plain, target as Plain, tree, "");
  return target;
}
