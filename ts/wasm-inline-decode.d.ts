// The decode-only WASM module's bytes, inlined into JS (gzip, base64) by wasm/inline.mjs as dist/ts/wasm-inline-decode.js.
export declare function wasmBytes(): Promise<Uint8Array>;
export declare function wasmBytesSync(): Uint8Array;
