import { IdeactError, InvalidSchemaError, UnresolvedReferenceError } from 'ideact';

describe('IdeactError', () => {
  it('carries a stable code, the fault, the class name and the cause', () => {
    const cause = new Error('root cause');
    const error = new UnresolvedReferenceError({ reference: '†state.city', cause });
    expect(error.code).toBe('UNRESOLVED_REFERENCE');
    expect(error.fault).toBe('runtime');
    expect(error.name).toBe('UnresolvedReferenceError');
    expect(error.cause).toBe(cause);
    expect(error.message).toContain('†state.city');
    expect(error.toCallError()).toEqual({ code: 'UNRESOLVED_REFERENCE', message: error.message });
  });

  it('isInstance recognises the class and the base, and rejects other classes and plain errors', () => {
    const error = new UnresolvedReferenceError({ reference: '†input.x' });
    expect(IdeactError.isInstance(error)).toBe(true);
    expect(UnresolvedReferenceError.isInstance(error)).toBe(true);
    expect(InvalidSchemaError.isInstance(error)).toBe(false);
    expect(IdeactError.isInstance(new Error('plain'))).toBe(false);
    expect(IdeactError.isInstance({ code: 'UNRESOLVED_REFERENCE' })).toBe(false);
  });

  it('isInstance accepts errors of copies before 0.2 (brand true + code, not prototype)', () => {
    const foreign = new Error('from another copy') as Error & { code: string };
    Object.defineProperty(foreign, Symbol.for('ideact.error'), { value: true });
    foreign.code = 'UNRESOLVED_REFERENCE';
    expect(UnresolvedReferenceError.isInstance(foreign)).toBe(true);
    expect(InvalidSchemaError.isInstance(foreign)).toBe(false);
  });
});
