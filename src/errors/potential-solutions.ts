/**
 * Formats a misuse message NestJS-style: the problem, then a "Potential solutions:" list, so that the
 * reader learns how to fix it without opening the docs.
 * @internal
 */
export function withPotentialSolutions(problem: string, solutions: readonly string[]): string {
  if (solutions.length === 0) return problem;
  return `${problem}\nPotential solutions:\n${solutions.map((solution) => `- ${solution}`).join('\n')}`;
}
