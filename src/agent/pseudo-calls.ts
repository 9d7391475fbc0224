import type { Call } from '../protocol/call';

/**
 * The pseudo-calls the Actor attributes results to when no real Call is at fault: in a module of
 * their own, so the package's ES entry reads them without loading the Actor (issue 28).
 */

/** The pseudo-call a result about an invalid final output is attributed to. */
export const OUTPUT_CALL: Call = { _tool: 'output' };

/** The pseudo-call a result about an invalid solution whose Calls had started is attributed to. */
export const SOLUTION_CALL: Call = { _tool: 'solution' };
