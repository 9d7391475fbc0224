import {
  IdeactError,
  InvalidIdeaError,
  InvalidOutputPathError,
  InvalidVesselError,
  UnknownToolError,
  UnsafePathError,
} from 'ideact';

describe('protocol error classes', () => {
  it.each([
    [
      new UnsafePathError({ path: 'a.__proto__', segment: '__proto__' }),
      'UNSAFE_PATH',
      'runtime',
      /"a.__proto__".*"__proto__".*Rename/,
    ],
    [
      new InvalidOutputPathError({ path: 'a..b', reason: 'empty key' }),
      'INVALID_OUTPUT_PATH',
      'runtime',
      /"a..b": empty key.*Write/,
    ],
    [
      new InvalidIdeaError({ source: 'x.json', jsonPath: '/schema', reason: 'bad' }),
      'INVALID_IDEA',
      'input',
      /x.json at \/schema: bad/,
    ],
    [
      new InvalidIdeaError({ source: 'x.json', jsonPath: '', reason: 'bad' }),
      'INVALID_IDEA',
      'input',
      /at \(root\)/,
    ],
    [
      new UnknownToolError({ toolName: 'x', knownTools: [] }),
      'UNKNOWN_TOOL',
      'model',
      /Unknown tool "x"\. Known tools: \(none\)\./,
    ],
    [
      new InvalidVesselError({ jsonPath: '/calls', reason: 'bad' }),
      'INVALID_VESSEL',
      'model',
      /at \/calls: bad.*"calls"/,
    ],
  ])(
    '%s has a stable code, a fault and a message naming what is at fault',
    (error, code, fault, message) => {
      expect(IdeactError.isInstance(error)).toBe(true);
      expect(error.code).toBe(code);
      expect(error.fault).toBe(fault);
      expect(error.message).toMatch(message);
      expect(error.toCallError()).toEqual({ code, message: error.message });
    },
  );

  it('keeps the cause', () => {
    const cause = new Error('root');
    expect(new UnsafePathError({ path: 'p', segment: 'prototype', cause }).cause).toBe(cause);
  });
});
