import { expect } from "vitest";

/** The code and path of the error fn throws, which must be an instance of cls. */
export function thrown(fn: () => unknown, cls: abstract new (...args: never[]) => { code: string; path: string }): [string, string] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(cls);
    const err = e as { code: string; path: string };
    return [err.code, err.path];
  }
  throw new Error("did not throw");
}

/** The error fn throws. */
export function thrownError(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("did not throw");
}
