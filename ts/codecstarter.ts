// The codec's starter, for what needs the codec only when it is used: a message type whose views
// or builders only the codec encodes without loss names it (generated code), and init() loads the
// codec when such a type is made. A program that uses no such type drops it, and the codec with it.
// Bundlers take codecstarter.browser.ts instead (package.json's "browser" field).
import { FullRuntime } from "./fullruntime.js";
import { packagedCodec } from "./instantiate.js";

export const codec = /* @__PURE__ */ packagedCodec("hppproto.wasm", FullRuntime);
