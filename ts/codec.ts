// The codec (cpp/, wasm/dist/hppproto.wasm) for the programs that need it: ProtoJSON, runtime
// schemas, files generated for CODE_SIZE, extensions. Loading this module (imported by the modules
// that need it, and as "hppproto/codec" by applications that want it always) makes init() load the
// codec; a program that loads nothing needing it starts without. In Node, and unbundled in browsers,
// the codec is read or fetched from the package; bundlers take codec.browser.ts instead (the
// package's "browser" field), which inlines it.
import { codec } from "./codecstarter.js";
import { wantCodec } from "./loader.js";

wantCodec(codec);
