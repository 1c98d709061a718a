// The runtime with the codec (cpp/, wasm/): what Runtime does, plus the codec's table-driven
// decoder for what compiled decoders leave to it or do not cover (files generated for CODE_SIZE,
// runtime schemas). The decode-only entry (hppproto/decode) starts this class; FullRuntime adds
// the encoder and ProtoJSON. Programs that start without the codec carry none of this.
import { ABI } from "./abi.js";
import { SchemaError } from "./errors.js";
import { Runtime, type Exports } from "./runtime.js";
import type { SchemaDef } from "./schema.js";
import { schemaTable } from "./table.js";

/** A schema's tables in WASM: the codec's, and its ProtoJSON names once a JSON read needed them (0: none). */
export interface SchemaHandles {
  readonly schema: number;
  jsonNames?: number;
}

export class CodecRuntime extends Runtime {
  /**
   * Each schema's tables in WASM, loaded on first use and freed once the schema is collected:
   * schemas built at run time and dropped (schemaFromSources, ...) take no memory for good.
   */
  protected readonly schemas = new WeakMap<SchemaDef, SchemaHandles>();
  private readonly unusedSchemas = new FinalizationRegistry<SchemaHandles>(({ schema, jsonNames }) => {
    if (jsonNames) this.exports.hp_json_names_free?.(jsonNames);
    this.exports.hp_schema_free!(schema);
  });
  private lastSchema: SchemaDef | undefined;
  private lastHandle = 0;

  constructor(exports: Exports) {
    super(exports);
    const abi = exports.hp_abi!() >>> 2;
    const theirs = Array.from(this.mem.u32.subarray(abi, abi + ABI.length));
    if (theirs.some((v, i) => v !== ABI[i])) {
      throw new Error(`hppproto: the WASM module lays out its structures differently from this runtime (hp_abi ${theirs.join(",")}, ts/abi.ts ${ABI.join(",")}): they come from different builds`);
    }
  }

  override get hasCodec(): boolean {
    return true;
  }

  /** The schema's handle in WASM, loading and validating its table on first use. */
  override schema(def: SchemaDef): number {
    if (def === this.lastSchema) return this.lastHandle; // one message type decoded over and over
    const known = this.schemas.get(def)?.schema;
    if (known !== undefined) {
      this.lastSchema = def;
      this.lastHandle = known;
      return known;
    }
    const handle = this.loadTable(schemaTable(def), (p, n) => this.exports.hp_schema_load!(p, n));
    if (handle === 0) {
      const s = this.status();
      const where = s.detail < def.messages.length ? ` in message ${def.messages[s.detail]!.name}` : "";
      throw new SchemaError(`hppproto: schema table rejected${where} (table byte ${s.offset})`, s.offset);
    }
    const handles = { schema: handle };
    this.schemas.set(def, handles);
    this.unusedSchemas.register(def, handles);
    super.schema(def); // the zeroed record
    return handle;
  }

  /** Copies a table into memory for `load`, which keeps what it needs of it; returns load's handle. */
  protected loadTable(bytes: Uint8Array, load: (ptr: number, size: number) => number): number {
    const p = this.malloc(bytes.length);
    this.mem.u8.set(bytes, p);
    const handle = load(p, bytes.length) >>> 0;
    this.exports.free(p);
    this.mem.sync();
    return handle;
  }

  protected override genericDecode(schema: number, message: number, arena: number, ptr: number, size: number, reset: boolean): number {
    return this.exports.hp_decode!(schema, message, arena, ptr, size, reset ? 1 : 0) >>> 0;
  }

  protected override genericDecodeDelimited(schema: number, message: number, arena: number, ptr: number, size: number, reset: boolean): number {
    return this.exports.hp_decode_delimited!(schema, message, arena, ptr, size, reset ? 1 : 0, this.slotPtr) ? 2 : 1;
  }
}
