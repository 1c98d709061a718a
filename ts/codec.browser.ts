// codec.ts for bundlers (package.json's "browser" field, and the "browser" condition of "hppproto/codec"):
// the codec inlined, so that a bundle needs no loader configuration and no file copied next to it.
// Pass `wasm` to init() to fetch it instead (from a CDN, or for streaming compilation).
import { codec } from "./codecstarter.browser.js";
import { wantCodec } from "./loader.js";

wantCodec(codec);
