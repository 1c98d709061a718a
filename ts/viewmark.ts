// Whether a value is a view (builders are views), told by a mark on MessageView's prototype instead
// of instanceof: the message types, extensions, JSON and the text format ask it, and through
// instanceof they brought the view classes (3 KB minified) into programs of plain objects only.
import type { MessageView } from "./view.js";

export const VIEW_MARK: unique symbol = Symbol("hppproto.view");

export const isView = (x: unknown): x is MessageView => typeof x === "object" && x !== null && VIEW_MARK in x;
