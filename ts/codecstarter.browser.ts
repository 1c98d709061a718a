// codecstarter.ts for bundlers: the codec inlined (see codec.browser.ts).
import { FullRuntime } from "./fullruntime.js";
import { codecStarter } from "./instantiate.js";
import { wasmBytes, wasmBytesSync } from "./wasm-inline.js";

export const codec = /* @__PURE__ */ codecStarter(wasmBytes, wasmBytesSync, FullRuntime);
