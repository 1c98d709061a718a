// The protobuf text format for generated message types. Functions rather than methods of the
// message types, so that a program which never prints or reads text carries none of this code.
import { DecodeError, describeCode, EncodeError } from "../errors.js";
import type { AnyMessageType, PartialMessage, PlainOf, ViewOf } from "../message.js";
import type { MessageView } from "../view.js";
import { isView } from "../viewmark.js";
import { textOf } from "../input.js";
import { TextError } from "./error.js";
import { messageFromText, textPosition, type TextReadOptions } from "./parse.js";
import { messageToText, type TextWriteOptions } from "./print.js";

export { TextError, type TextErrorCode } from "./error.js";
export type { TextReadOptions } from "./parse.js";
export type { TextWriteOptions } from "./print.js";

/** A message (plain object or view) in the protobuf text format: one field per line, as protoc prints it. */
export function toText<M extends AnyMessageType>(type: M, message: PartialMessage<PlainOf<M>> | ViewOf<M>, options: TextWriteOptions = {}): string {
  // a view is printed from the plain object it holds
  const plain = isView(message) ? type.decode(type.encode(message)) : message;
  return messageToText(type.schemaDef, type.index, plain as Record<string, unknown>, options, type.typeName);
}

/** A plain object (as decode() gives it) from the protobuf text format. Errors name the line, column and field. */
export function fromText<M extends AnyMessageType>(type: M, text: string, options: TextReadOptions = {}): PlainOf<M> {
  const init = messageFromText(type.schemaDef, type.index, textOf(text, type.typeName, "fromText"), options, type.typeName);
  // through the codec once: the object decode() gives, every field present
  try {
    return type.decode(type.encode(init as never));
  } catch (e) {
    if (!(e instanceof EncodeError || e instanceof DecodeError)) throw e;
    // what only the codec finds (a memory budget): placed at the field's place in the text, not
    // at a byte of the bytes made in between
    const path = e.path ?? "";
    const { line, column } = textPosition(type.schemaDef, type.index, text, options, type.typeName, path);
    throw new TextError("INVALID_VALUE", path, e instanceof EncodeError ? e.reason : describeCode(e.code), line, column);
  }
}
