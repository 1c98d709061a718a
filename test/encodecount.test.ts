// The count of encodes in progress (ts/scratch.ts) belongs to the process, not to one encode: an
// encode that fails before it starts (the JS stack running out while its nesting level's encoder
// is made) must leave it as it was, or each such failure raises it for good, until every encode
// fails with DEPTH_LIMIT (found by review). A file of its own: each level's encoder is made once per
// module instance, and the failure needs an encode to be the first at its level.
import { beforeAll, describe, expect, it } from "vitest";
import { init } from "hppproto";
import { encodeForeignMessage, ForeignMessage, TestAllTypes } from "./gen/unittest/google/protobuf/unittest_proto3_pb.js";

beforeAll(async () => {
  await init();
});

/** `attempt` run at every depth of a recursion that reaches the end of the JS stack, with frames of every size in between. */
function nearStackEnd(attempt: () => void): void {
  const pads = Array.from({ length: 120 }, (_, k) => new Array<number>(k).fill(0));
  const recurse = (d: number): void => {
    try {
      recurse(d + 1);
    } catch {
      // the end of the stack
    }
    for (const p of pads) {
      try {
        attempt.apply(null, p as []);
      } catch {
        // an encode that ran out of stack
      }
    }
  };
  recurse(0);
}

describe("encodes that fail as they start leave the count of encodes in progress as it was", () => {
  it("plain objects (generated encoders), the first encode of the module near the end of the stack", () => {
    nearStackEnd(() => encodeForeignMessage({ c: 1 }));
    expect([...encodeForeignMessage({ c: 1 })]).toEqual([0x08, 0x01]);
    expect([...ForeignMessage.encode({ c: 2 })]).toEqual([0x08, 0x02]);
  });

  it("views through the codec (floats: only it encodes them without loss), near the end of the stack", () => {
    const view = TestAllTypes.view(TestAllTypes.encode({ optionalFloat: 1.5 }));
    nearStackEnd(() => TestAllTypes.encode(view));
    expect([...TestAllTypes.encode(view)]).toEqual([0x5d, 0, 0, 0xc0, 0x3f]);
    expect([...encodeForeignMessage({ c: 3 })]).toEqual([0x08, 0x03]);
  });
});
