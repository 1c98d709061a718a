// The WASM module's bytes, inlined into JS (base64) by wasm/inline.mjs as dist/ts/wasm-inline.js.
export declare function wasmBytes(): Uint8Array;
