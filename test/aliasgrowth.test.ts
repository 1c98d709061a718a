// Input that aliases linear memory (a view's bytes field holding a message) while the copy of it
// grows memory. A file of its own: each step must find memory too small for what it needs, which
// in a runtime other tests have grown (and freed) depends on them.
import { beforeAll, describe, expect, it } from "vitest";
import { Arena, init } from "hppproto";
import { runtime } from "../dist/ts/runtime.js";
import { Node } from "./gen/names/limits_pb.js";

beforeAll(async () => {
  await init();
});

describe("aliases of memory as input", () => {
  it("a message held in a view's bytes field decodes from that alias, even when copying it grows memory", () => {
    const inner = Node.encode({ id: 4, name: "inner", blob: new Uint8Array(40 << 20).fill(2) });
    const arena = new Arena();
    const outer = Node.view(Node.encode({ id: 1, blob: inner }), arena);
    const before = runtime().mem.buffer.byteLength;
    const decoded = Node.decode(outer.blob); // the copy's staging buffer needs 40 MiB more
    expect(runtime().mem.buffer.byteLength).toBeGreaterThan(before);
    expect(decoded.name).toBe("inner");
    expect(decoded.blob!.length).toBe(40 << 20);
    expect(decoded.blob!.every((b) => b === 2)).toBe(true);
    // an alias taken before memory grew has lost its contents: an error, not an empty message
    const stale = Node.view(Node.encode({ id: 1, blob: Node.encode({ id: 5, name: "x" }) }), arena).blob;
    runtime().mem.memory.grow(1);
    expect(stale.length).toBe(0);
    expect(() => Node.decode(stale)).toThrow(/detached/);
    expect(Node.view(outer.blob).name).toBe("inner"); // the view re-reads its field from the new memory
    // into an arena of its own: the copy's 40 MiB block grows memory again
    const own = new Arena();
    const grown = runtime().mem.buffer.byteLength;
    const inOwn = Node.view(outer.blob, own);
    expect(runtime().mem.buffer.byteLength).toBeGreaterThan(grown);
    expect([inOwn.name, inOwn.blob.length, inOwn.blob[12345]]).toEqual(["inner", 40 << 20, 2]);
    own.release();
    arena.release();
  });
});
