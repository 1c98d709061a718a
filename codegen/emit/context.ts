// What every facade's emitter works from: the file being written, the run's model and names,
// the output options, and the references between generated modules.
import { FieldType, type Int64As } from "../../ts/schema.js";
import { holdingInt64 } from "../../ts/int64.js";
import { literal } from "../names.js";
import { ts } from "../syntax.js";
import { isMessage, numberKinds, type EnumModel, type ExtensionModel, type FieldModel, type FileOptionsModel, type MessageModel, type SchemaModel, type SchemaScope, type ServiceModel } from "../model.js";

/** What generated code offers per message; see hppproto-gen --help. */
export type Facade = "views" | "plain" | "builders" | "json";
export const facades: readonly Facade[] = ["views", "plain", "builders", "json"];

export interface EmitOptions {
  /** Module specifier of the runtime. */
  runtimeImport: string;
  /** Extension in imports between generated modules: ".js" (Node ESM), ".ts" (Deno, Bun, allowImportingTsExtensions) or "" (bundlers). */
  importExtension: ".js" | ".ts" | "";
  /** 64-bit integers, unless a field's jstype option says JS_STRING or JS_NUMBER. */
  int64: Int64As;
  facades: ReadonlySet<Facade>;
  /**
   * Files whose messages get no code of their own: their facades are interpreted from the schema
   * at run time (protobuf's optimize_for = CODE_SIZE, or --optimize_for code_size for every file).
   */
  codeSize: ReadonlySet<string> | "all";
}

export const defaultEmitOptions: EmitOptions = {
  runtimeImport: "hppproto/generated",
  importExtension: ".js",
  int64: "bigint",
  facades: new Set(facades),
  codeSize: new Set(),
};

/** Names a message or enum has in its file's module. */
export interface Names {
  type: string;
  view: string;
  reader: string;
  fill: string;
  encode: string;
  builder: string;
  toJsonString: string;
  /** The decoder of plain objects straight from wire bytes (decode.ts). */
  decoder: string;
  /** A message's decode(), view() and encode() as functions of their own (decodeX, viewX, encodeX): programs that call only them carry nothing else of the type. */
  decodeFunction: string;
  viewFunction: string;
  encodeFunction: string;
}

/** What generated code names: a declaration, or a file with custom options. */
export type Named = MessageModel | EnumModel | ExtensionModel | ServiceModel | FileOptionsModel;

/** One generated module being written: its file, and what it imports from the others. */
export class FileContext {
  /** file -> import alias of the generated modules this one refers to */
  readonly deps = new Map<string, string>();
  private readonly owners = new Map<FieldModel, MessageModel>();

  constructor(
    readonly file: string,
    readonly model: SchemaModel,
    readonly names: Map<Named, Names>,
    readonly options: EmitOptions,
    /** This file's schema: what its indexes of messages and enums count in. */
    readonly scope: SchemaScope,
  ) {}

  /** A reference to a message's or enum's type, view or reader from this file. */
  ref(target: MessageModel | EnumModel, which: keyof Names): string {
    const n = this.names.get(target)![which];
    if (target.file === this.file) return n;
    return `${this.module(target.file)}.${n}`;
  }

  /** The import alias of another file's module. */
  module(file: string): string {
    let alias = this.deps.get(file);
    if (!alias) this.deps.set(file, (alias = `$dep${this.deps.size}`));
    return alias;
  }

  /** The schema of the file declaring a message, and the message's index there. */
  schemaOf(target: MessageModel): string {
    return `${target.file === this.file ? "" : `${this.module(target.file)}.`}$schema, ${this.scope.local.get(target)!}`;
  }

  /**
   * As schemaOf(), for what decodes the message: its file's compiled decoders ($decoders, the same
   * schema once they are attached to it), which a bundle keeps only where something decodes.
   */
  decodersOf(target: MessageModel): string {
    if (!this.hasDecoders(target.file)) return this.schemaOf(target);
    return `${target.file === this.file ? "" : `${this.module(target.file)}.`}$decoders, ${this.scope.local.get(target)!}`;
  }

  /** Whether a file's module has compiled decoders: it is generated for speed, and declares messages. */
  hasDecoders(file: string): boolean {
    return !this.interpreted(file) && this.model.messages.some((m) => m.file === file && !m.isMapEntry && !m.extensionHolder);
  }

  /** An enum's index in this file's schema. */
  enumIndex(target: EnumModel): number {
    return this.scope.enums.indexOf(target);
  }

  /** Whether a file's messages are interpreted from the schema (CODE_SIZE) rather than generated. */
  interpreted(file: string): boolean {
    return this.options.codeSize === "all" || this.options.codeSize.has(file);
  }

  /**
   * The list classes (views) and array readers (plain objects) of the messages this module's
   * repeated fields hold, by name: each module has its own, so a message no repeated field holds
   * has neither.
   */
  readonly repeatedParts = new Map<string, [MessageModel, "list" | "readAll"]>();

  private repeated(target: MessageModel, which: "list" | "readAll"): string {
    const view = this.ref(target, "view"); // (imports target's module, naming its alias)
    const owner = target.file === this.file ? "" : `${view.slice(1, view.indexOf("."))}$`;
    const name = `${which}$${owner}${this.names.get(target)!.type}`;
    this.repeatedParts.set(name, [target, which]);
    return name;
  }

  /**
   * A message's part as a value: generated code's own, or for a CODE_SIZE message, the one
   * interpreted from the schema (the message's module is imported still: loading it registers the type).
   */
  value(target: MessageModel, which: "view" | "list" | "reader" | "readAll" | "fill" | "encode" | "builder" | "toJsonString"): string {
    if (which === "encode" || !this.interpreted(target.file)) return which === "list" || which === "readAll" ? this.repeated(target, which) : this.ref(target, which);
    this.ref(target, "type"); // the message's module is imported still: loading it registers the type
    if (which === "toJsonString") return `j.bySchema(${this.schemaOf(target)})`;
    const part = { view: "view", list: "list", reader: "read", readAll: "readAll", fill: "fill", builder: "builder" }[which];
    return `($interpretedParts${ts(`<${this.typeParams(target)}>`)}(${this.schemaOf(target)}).${part})`;
  }

  /** A message type's type parameters (plain object, view, builder), never for what this run leaves out. */
  typeParams(m: MessageModel): string {
    const { views, plain, builders } = this.parts;
    const type = plain || builders ? this.ref(m, "type") : "never";
    const view = views ? this.ref(m, "view") : "never";
    return `${type}, ${view}, ${builders ? this.ref(m, "builder") : view}`;
  }

  /** What this run emits; builders need the view classes they extend and the fillers they write with. */
  get parts() {
    const f = this.options.facades;
    return { views: f.has("views") || f.has("builders"), plain: f.has("plain"), builders: f.has("builders"), json: f.has("json") };
  }

  /**
   * The TS type of one value of f in plain objects (and of scalars in views). In a plain-object
   * interface, `form` names its 64-bit form type parameter, which 64-bit integers and the messages
   * that hold them take.
   */
  valueType(f: FieldModel, form?: string): string {
    if (isMessage(f)) {
      const type = this.ref(f.message!, "type");
      return form !== undefined && this.holds64(f.message!) ? `${type}<${form}>` : type;
    }
    if (f.type === FieldType.Enum) return this.ref(f.enum!, "type");
    if (f.type === FieldType.String) return "string";
    if (f.type === FieldType.Bytes) return "Uint8Array";
    if (f.type === FieldType.Bool) return "boolean";
    const as = this.int64As(f);
    if (as === undefined) return numberKinds[f.type]!.ts;
    return form === undefined ? as : `$Int64<${literal(as)}, ${form}>`;
  }

  private int64Holders?: Map<MessageModel, boolean>;

  /**
   * Whether m's plain objects hold 64-bit integers, themselves or in messages they hold (the
   * runtime's rule, int64.ts): their interface then takes the 64-bit form as a type parameter.
   */
  holds64(m: MessageModel): boolean {
    if (this.int64Holders === undefined) {
      const { messages } = this.model;
      const at = new Map(messages.map((x, i) => [x, i]));
      const holds = holdingInt64(messages.map((x) => x.fields.map((f) => ({ type: f.type, label: f.label, ref: at.get((f.message ?? f.mapEntry)!) ?? -1 }))));
      this.int64Holders = new Map(messages.map((x, i) => [x, holds[i]!]));
    }
    return this.int64Holders.get(m)!;
  }

  /**
   * The 4th type parameter of m's message type: its plain objects in each 64-bit form, for
   * decode()'s int64 option ("" when they hold no 64-bit integer or this run makes no plain objects).
   */
  formsParam(m: MessageModel): string {
    if (!(this.parts.plain || this.parts.builders) || !this.holds64(m)) return "";
    const type = this.ref(m, "type");
    return `, $Int64Forms<${type}<"string">, ${type}<"number">, ${type}<"bigint">>`;
  }

  /** pkg.Message.field, for errors raised by generated code. */
  fieldPath(f: FieldModel): string {
    if (this.owners.size === 0) for (const m of this.model.messages) for (const g of m.fields) this.owners.set(g, m);
    const owner = this.owners.get(f)!;
    if (owner.isMapEntry) {
      const mapField = [...this.owners.keys()].find((g) => g.mapEntry === owner)!;
      return `${this.fieldPath(mapField)} (map ${f.name})`;
    }
    return `${owner.fullName}.${f.name}`;
  }

  /** For 64-bit integer fields, their JS type: the field's jstype option, else --int64. */
  int64As(f: FieldModel): Int64As | undefined {
    if (numberKinds[f.type]?.ts !== "bigint") return undefined;
    return f.jsType ?? this.options.int64;
  }
}
