// Loads .proto files from disk in Node: include paths like protoc's --proto_path, files named on
// the command line found as protoc finds them, and descriptor.proto and its siblings from the
// copies protobufjs ships. Parsing is parse.ts's.
import * as fs from "node:fs";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { at, ProtoLoadError } from "./located.js";
import { builtInName, parseProtos, type LoadedFiles } from "./parse.js";
import { excerpt } from "../ts/excerpt.js";

export { ProtoLoadError, parsedName, realName, type LoadedFiles } from "./parse.js";

/** protobufjs ships descriptor.proto, api.proto, type.proto and source_context.proto here; the
 * rest of the well-known types are built into protobufjs under their import names. */
const bundledProtos = path.dirname(createRequire(import.meta.url).resolve("protobufjs/package.json"));

/** A well-known type file protobufjs supplies (built in, or shipped with it): its copies carry no comments. */
export const isBundledWellKnown = (importName: string): boolean =>
  builtInName(importName) === importName || (importName.startsWith("google/protobuf/") && existsSync(path.join(bundledProtos, importName)));

export function loadProtos(files: string[], protoPaths: string[]): LoadedFiles {
  // real paths throughout, so that a file reached through a symlinked folder (or a working
  // directory that is one) is still found inside its include path
  const real = (p: string) => (existsSync(p) ? fs.realpathSync(p) : p);
  // without --proto_path the working directory is the include path, as with protoc
  const roots = (protoPaths.length > 0 ? protoPaths : ["."]).map((p) => real(path.resolve(p)));
  // where a file or import is looked for, for the error that says it is nowhere
  const given = [...roots];
  const searched = (name: string, first: string[] = []) =>
    `looked for ${[...new Set([...first, ...given.map((r) => path.join(r, name))])].join(", ")} (--proto_path ${given.join(", ")})`;
  const importNames = new Map<string, string>();
  const locate = (target: string): string | undefined => {
    for (const dir of [...roots, bundledProtos]) {
      const full = path.join(dir, target);
      if (existsSync(full)) {
        importNames.set(full, target.split(path.sep).join("/"));
        return full;
      }
    }
    return undefined;
  };

  const entryPoints = files.map((f) => {
    // A file named on the command line is found through the include path that contains it, or,
    // when no such file exists from the working directory, as a name inside an include path (as
    // protoc does); a file outside all of them gets its own directory as one.
    let abs = path.resolve(f);
    if (!existsSync(abs) && !path.isAbsolute(f)) {
      const inRoot = [...roots, bundledProtos].map((r) => path.join(r, f)).find((p) => existsSync(p));
      if (inRoot !== undefined) abs = inRoot;
      else if (builtInName(f) === f) return f; // a well-known type named as protoc names it: protobufjs's built-in copy
    }
    abs = real(abs);
    let dir = [...roots, bundledProtos].find((r) => abs.startsWith(r + path.sep));
    if (dir === undefined) {
      dir = path.dirname(abs);
      roots.push(dir);
    }
    if (!existsSync(abs)) throw new ProtoLoadError(`${excerpt(f)}: file not found: ${path.isAbsolute(f) ? `looked for ${f}` : searched(f, [path.resolve(f)])}`);
    importNames.set(abs, path.relative(dir, abs).split(path.sep).join("/"));
    return abs;
  });

  const loaded = parseProtos(entryPoints, {
    resolve(target, origin) {
      if (target.includes("\\") || target.split("/").some((part) => part === "." || part === ".." || part === "")) {
        // as protoc: an import names a file inside an include path, never a way out of one
        throw at(origin, `"${target}"`, `import "${excerpt(target)}": backslashes, consecutive slashes, "." and ".." are not allowed in import paths`);
      }
      const found = locate(target);
      if (found) return found;
      const rel = path.resolve(path.dirname(origin), target);
      if (existsSync(rel)) return rel;
      throw at(origin, `"${target}"`, `import "${excerpt(target)}" was not found in any --proto_path: ${searched(excerpt(target))}`);
    },
    read: (file) => fs.readFileSync(file, "utf8"),
    importName: (file) => importNames.get(file) ?? file,
  });
  for (const [file, name] of loaded.importNames) if (file.startsWith(bundledProtos + path.sep)) loaded.wellKnown.add(name);
  return loaded;
}
