import fc from 'fast-check';
import type { AgentNode, AgentState } from 'ideact';
import {
  appendNode,
  contextMessages,
  createInitialState,
  markState,
  pathTo,
  rollbackState,
} from '../../src/runs/state-tree';

/** The path by a plain walk over the parent links (the definition pathTo must keep). */
function naivePath(state: AgentState, id: number | null): AgentNode[] {
  const path: AgentNode[] = [];
  for (let current = id; current !== null; current = state.nodes[current]!.parent) {
    path.push(state.nodes[current]!);
  }
  return path.reverse();
}

const operation = fc.oneof(
  fc.record({ append: fc.string({ maxLength: 3 }) }),
  fc.record({ branchFrom: fc.nat() }),
  fc.record({ replaceMessageOf: fc.nat() }),
  fc.record({ headTo: fc.nat() }),
  fc.record({ markThenRollback: fc.nat({ max: 3 }) }),
);

describe('pathTo and contextMessages with their caches (R-LOOP-1)', () => {
  it('always equals the plain walk, whatever is appended, branched, replaced or rolled back', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 40 }), (operations) => {
        const state = createInitialState({ task: 'start' });
        for (const change of operations) {
          const size = state.nodes.length;
          if ('append' in change) {
            appendNode(state, { type: 'text', text: change.append }, { module: 'actor' });
          } else if ('branchFrom' in change) {
            appendNode(
              state,
              { type: 'text', text: 'branch' },
              { module: 'actor' },
              change.branchFrom % size,
            );
          } else if ('replaceMessageOf' in change) {
            const node = state.nodes[change.replaceMessageOf % size]!;
            node.message =
              node.message.type === 'vessel'
                ? { type: 'text', text: 'edited' }
                : { type: 'vessel', calls: [], output: 'edited' };
          } else if ('headTo' in change) {
            state.head = change.headTo % size;
          } else {
            const mark = markState(state);
            for (let index = 0; index < change.markThenRollback; index++) {
              appendNode(state, { type: 'text', text: 'undone' }, { module: 'actor' });
              pathTo(state);
            }
            rollbackState(state, mark);
          }
          expect(pathTo(state)).toEqual(naivePath(state, state.head));
          expect(contextMessages(state)).toEqual(
            naivePath(state, state.head)
              .map((node) => node.message)
              .filter((message) => message.type !== 'vessel'),
          );
          const some = state.nodes.length - 1;
          expect(pathTo(state, some)).toEqual(naivePath(state, some));
        }
      }),
      { numRuns: 300 },
    );
  });
});
