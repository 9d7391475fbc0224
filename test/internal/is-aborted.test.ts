import { isAborted } from '../../src/internal/is-aborted';

describe('isAborted (issue 28: one reader of AbortSignal.aborted)', () => {
  it("follows the signal's state, for signals made before and after the module loaded", () => {
    const controllers = Array.from({ length: 8 }, () => new AbortController());
    for (const controller of controllers) expect(isAborted(controller.signal)).toBe(false);
    controllers[3]?.abort(new Error('stop'));
    expect(controllers.map((controller) => isAborted(controller.signal))).toEqual([
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(isAborted(AbortSignal.abort())).toBe(true);
    expect(isAborted(AbortSignal.any([controllers[3]!.signal]))).toBe(true);
  });
});
