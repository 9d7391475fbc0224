/**
 * Whether `signal` has aborted, read in this one place (issue 28). Node 20 gives every AbortSignal a
 * hidden class of its own (it sets the prototype of a new EventTarget), so each place that read
 * `signal.aborted` met a new class with every run, and V8 threw away the optimized code that had
 * inlined the read (its record of the classes it saw loses the dead runs' ones, so it never turns
 * generic by itself).
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

/**
 * Signals of distinct classes (on Node 20), kept for the process's life: {@link isAborted} reads
 * each a few times at load, so V8 records its read as generic from the start. Later runs' signals
 * then cost no deoptimization; where signals share a class (Node 22, 24) this changes nothing.
 */
const PRIMING_SIGNALS = Array.from({ length: 5 }, () => new AbortController().signal);
// V8 records what a function saw only after its first calls (a handful): four rounds go past that.
for (let round = 0; round < 4; round++) {
  for (const signal of PRIMING_SIGNALS) isAborted(signal);
}
