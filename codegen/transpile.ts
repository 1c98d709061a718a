// --target js: the emitted TypeScript as JavaScript modules plus .d.ts declarations, each file on
// its own (the emitter writes every export's type out, as isolatedDeclarations asks). The
// TypeScript compiler does it; it is the user's, found from the working folder, so that the
// package does not carry it for everyone.
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as TS from "typescript";
import type { OutputFile } from "./emit.js";

function loadTypeScript(): typeof TS {
  for (const from of [path.join(process.cwd(), "noop.js"), import.meta.url]) {
    try {
      return createRequire(from)("typescript") as typeof TS;
    } catch {
      // try the next place
    }
  }
  throw new Error("--target js needs the typescript package (npm install --save-dev typescript)");
}

export function toJavaScript(modules: OutputFile[]): OutputFile[] {
  const ts = loadTypeScript();
  const compilerOptions: TS.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true };
  const declarationOptions: TS.CompilerOptions = { ...compilerOptions, declaration: true, isolatedDeclarations: true };
  const out: OutputFile[] = [];
  for (const { name, content } of modules) {
    const base = name.replace(/\.ts$/, "");
    const js = ts.transpileModule(content, { compilerOptions, fileName: name, reportDiagnostics: true });
    const dts = ts.transpileDeclaration(content, { compilerOptions: declarationOptions, fileName: name, reportDiagnostics: true });
    const problems = [...(js.diagnostics ?? []), ...(dts.diagnostics ?? [])];
    if (problems.length > 0) {
      const text = problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("\n");
      throw new Error(`${name}: the generated code does not transpile on its own (a hppproto-gen bug):\n${text}`);
    }
    out.push({ name: `${base}.js`, content: js.outputText }, { name: `${base}.d.ts`, content: dts.outputText });
  }
  return out;
}
