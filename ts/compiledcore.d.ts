// The core of compiled decoders (codegen/wasm/decoder.ts compileCore: the helpers every compiled
// module imports), base64, written by wasm/inline.mjs as dist/ts/compiledcore.js.
export declare const COMPILED_CORE: string;
