// UTF-8 validation for compiled decoders, as proto3 strings require and cpp/include/hppproto/utf8.hpp
// checks it: no overlong forms, no surrogates, nothing past U+10FFFF; ASCII eight bytes at a time.
import { Code } from "./writer.js";

/** The body of (p, n) -> 1 when the n bytes at p are valid UTF-8, else 0. Locals: five i32. */
export function validUtf8(): Code {
  const P = 0, N = 1, END = 2, B0 = 3, LEN = 4, LO = 5, HI = 6;
  const c = new Code();
  const invalidIf = () => {
    c.if_();
    c.i32(0).op("return");
    c.end();
  };
  c.get(P).get(N).op("i32.add").set(END);
  const character = c.loop();
  {
    const ascii = c.block();
    const words = c.loop();
    c.get(END).get(P).op("i32.sub").i32(8).op("i32.lt_s").br_if(ascii);
    c.get(P).load("i64").i64(0x8080808080808080n).op("i64.and", "i64.eqz", "i32.eqz").br_if(ascii);
    c.get(P).i32(8).op("i32.add").set(P);
    c.br(words).end().end();
  }
  c.get(P).get(END).op("i32.ge_u");
  c.if_();
  c.i32(1).op("return");
  c.end();
  c.get(P).load("i32_8u").tee(B0).i32(0x80).op("i32.lt_u");
  c.if_();
  c.get(P).i32(1).op("i32.add").set(P).br(character);
  c.end();
  // the lead byte: the sequence's length and the range its second byte must fall in
  c.i32(0x80).set(LO).i32(0xbf).set(HI);
  const lead = c.block();
  const inRange = (lo: number, hi: number) => c.get(B0).i32(lo).op("i32.sub").i32(hi - lo).op("i32.le_u");
  inRange(0xc2, 0xdf);
  c.if_();
  c.i32(2).set(LEN).br(lead);
  c.end();
  // three and four bytes: a lead byte whose second byte has a narrower range
  const longer = [
    { lo: 0xe0, hi: 0xef, len: 3, narrow: [[0xe0, LO, 0xa0], [0xed, HI, 0x9f]] }, // overlong; surrogates
    { lo: 0xf0, hi: 0xf4, len: 4, narrow: [[0xf0, LO, 0x90], [0xf4, HI, 0x8f]] }, // overlong; past U+10FFFF
  ];
  for (const form of longer) {
    inRange(form.lo, form.hi);
    c.if_();
    c.i32(form.len).set(LEN);
    for (const [b0, bound, value] of form.narrow) {
      c.get(B0).i32(b0!).op("i32.eq");
      c.if_();
      c.i32(value!).set(bound!);
      c.end();
    }
    c.br(lead);
    c.end();
  }
  c.i32(0).op("return");
  c.end();
  c.get(END).get(P).op("i32.sub").get(LEN).op("i32.lt_s");
  invalidIf();
  c.get(P).load("i32_8u", 1).tee(B0).get(LO).op("i32.lt_u").get(B0).get(HI).op("i32.gt_u", "i32.or");
  invalidIf();
  for (const i of [2, 3]) {
    // a continuation byte, read only inside the sequence (which fits before END)
    c.get(LEN).i32(i).op("i32.gt_u");
    c.if_();
    c.get(P).load("i32_8u", i).i32(0xc0).op("i32.and").i32(0x80).op("i32.ne");
    invalidIf();
    c.end();
  }
  c.get(P).get(LEN).op("i32.add").set(P);
  c.br(character);
  c.end();
  c.i32(1);
  return c;
}
