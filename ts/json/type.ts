// A message type with ProtoJSON: what generated code uses unless hppproto-gen --facades leaves JSON
// out, so that bundles without it carry none of the JSON code.
import { MessageType } from "../message.js";
import { MessageView } from "../view.js";
import { JsonError, within } from "./common.js";
import { fromJs, JsonSyntaxError, parseJson, type JsonValue } from "./parse.js";
import { messageToJson, stringify, type JsonWriteOptions } from "./print.js";
import { messageFromJson, type JsonReadOptions } from "./read.js";
import { FALLBACK, throughCodec } from "./in.js";

export class JsonMessageType<T, V, B extends V = V> extends MessageType<T, V, B> {
  /** The message as a ProtoJSON value (objects, arrays, strings, numbers, booleans, null). */
  toJson(message: T | V, options: JsonWriteOptions = {}): unknown {
    const plain = (message instanceof MessageView ? this.part("read", "plain objects")(message.$mem(), message.$ptr, message.$arena.rt) : message) as T;
    const generated = this.parts.toJson;
    if (generated === undefined) return messageToJson(this.schemaDef, this.index, plain as Record<string, unknown>, options, this.typeName);
    try {
      return generated(plain, options);
    } catch (e) {
      throw within(e, this.typeName);
    }
  }

  /** The message as ProtoJSON text; `indent` as JSON.stringify takes it. */
  toJsonString(message: T | V, options: JsonWriteOptions & { indent?: number | string } = {}): string {
    return stringify(() => this.toJson(message, options), options.indent);
  }

  /** A plain object from a ProtoJSON value (what JSON.parse returns). */
  fromJson(json: unknown, options: JsonReadOptions = {}): T {
    let value: JsonValue;
    try {
      value = fromJs(json);
    } catch (e) {
      throw new JsonError("INVALID_JSON", this.typeName, (e as Error).message);
    }
    return this.fromJsonValue(value, options);
  }

  /** A plain object from ProtoJSON text. Duplicate keys and large integers are handled exactly. */
  fromJsonString(text: string, options: JsonReadOptions = {}): T {
    let value: JsonValue;
    try {
      value = parseJson(text);
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw new JsonError("INVALID_JSON", this.typeName, e.message);
      throw e;
    }
    return this.fromJsonValue(value, options);
  }

  private fromJsonValue(value: JsonValue, options: JsonReadOptions): T {
    const generated = this.parts.fromJson;
    if (generated !== undefined) {
      try {
        return generated(value, options, 0);
      } catch (e) {
        if (e !== FALLBACK) throw within(e, this.typeName);
      }
    }
    const init = messageFromJson(this.schemaDef, this.index, value, options, this.typeName);
    try {
      return throughCodec(this, init) as T;
    } catch (e) {
      throw within(e, this.typeName);
    }
  }
}
