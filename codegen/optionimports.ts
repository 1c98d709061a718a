// Edition 2024's `import option "x.proto";`: the file is loaded for the custom options it declares,
// which the importing file may use, and is not a dependency (buf hands plugins no such file, and its
// image of the importing file leaves it out). protobufjs's parser drops the statement, so it is read here.
import { withoutComments } from "./located.js";

// string literals, or an option import (its path's literal in group 1 or 2): what a literal holds is text
const optionImport = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|(?:^|[;}\s])import\s+option\s+(?:"((?:\\.|[^"\\\n])*)"|'((?:\\.|[^'\\\n])*)')\s*;/g;

/** The files a .proto text imports with `import option`, as written. */
export function optionImports(source: string): string[] {
  return [...withoutComments(source).matchAll(optionImport)].flatMap((m) => m[1] ?? m[2] ?? []);
}

/**
 * The files loaded only for their options: not reached from the files asked for through ordinary
 * (public, weak) imports. `dependencies`: each file's ordinary imports.
 */
export function loadedForOptionsOnly(asked: readonly string[], loaded: Iterable<string>, dependencies: ReadonlyMap<string, readonly string[]>): Set<string> {
  const reached = new Set<string>();
  for (const stack = [...asked]; stack.length > 0; ) {
    const file = stack.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    stack.push(...(dependencies.get(file) ?? []));
  }
  return new Set([...loaded].filter((file) => !reached.has(file)));
}
