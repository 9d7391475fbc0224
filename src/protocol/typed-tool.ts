/**
 * A reference to a Tool that carries its param and output types at compile time (codegen emits classes
 * of this shape), so `executor.call(Lyricist, params)` type-checks `params` and types the result.
 */
export interface TypedToolReference<TInput, TOutput> {
  /** The Tool's `_tool` name. */
  readonly toolName: string;
  /** Phantom field: never set at run time, only carries the types. */
  readonly __ideactTypes?: { input: TInput; output: TOutput };
}
