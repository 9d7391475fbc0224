import type { Agent } from '../agent/agent';
import type { RunHeader, RunStore } from '../runs/run-store';
import { ActorSession } from './actor-session';
import { runAgentStep, type AgentStepOutcome } from './agent-step';
import { retryWhileDatabaseDown } from './database-retries';
import type { DbosSdk } from './dbos-sdk';
import { RUN_WORKFLOW_NAME } from './engine-options';
import { RunSession } from './run-session';
import type { WorkerRunResult } from './worker-run-result';
import type { WorkerRunHeader } from './worker-run-header';

export type { WorkerRunHeader } from './worker-run-header';

/** The second argument of the run workflow, given at enqueue time. @internal */
export interface RunWorkflowInput {
  /** The agent name the worker's agent factory receives (`enqueueRun({ agentName })`). */
  agentName?: string;
}

/** What the workflow needs from its worker. @internal */
export interface RunWorkflowContext {
  store: RunStore;
  agentFor: (header: WorkerRunHeader) => Agent | Promise<Agent>;
  /** Aborted by `worker.stop()`. */
  stopSignal: AbortSignal;
  /** Steps executing now (the worker's stop() waits for them to settle). */
  inFlight: Set<Promise<unknown>>;
}

/**
 * Registers the DBOS workflow `ideact-run(runId, input)` (before DBOS launches) and returns it.
 * Its design, correct under replay (DBOS re-runs a workflow function after a crash, returning each
 * recorded step's output instead of running it again):
 * - the workflow is a loop whose only side effects are DBOS steps, so it is deterministic;
 * - each model turn (Prompter, Generator with its model request, Discriminator) is ONE DBOS step
 *   (`agent-step`): load the run from the store, run the turn, return the new status;
 * - an Actor step is one DBOS step per Call (`call <callId>`), reserved at once in index order when
 *   an `agent-step` reports the Vessel (DBOS numbers a step before its first await, so a replay
 *   numbers them alike); each runs its Call and commits the result to the store before it returns
 *   ({@link ActorSession}), so a recorded Call never runs again and a started one runs at least once;
 * - a module Call's nested agent runs as a child workflow `ideact-run(nestedRunId)` (its run stored
 *   with the module in its header, so any worker rebuilds its agent): a `nested-run` step records
 *   which Call handed its nested run off next, then the child starts; the Call's step waits for it;
 * - the loop ends when the run stops (completed, awaiting approval, a limit, an error, cancelled)
 *   and returns its {@link WorkerRunResult}; a step that fails otherwise marks the run `failed`.
 * @internal
 */
export function registerRunWorkflow(
  sdk: DbosSdk,
  context: RunWorkflowContext,
): (runId: string, input?: RunWorkflowInput) => Promise<WorkerRunResult> {
  const { DBOS } = sdk;
  // A nested run (a module Call's nested agent) is a child workflow of its parent's: this function.
  // (`registered` is assigned below, before any workflow runs.)
  const startChild = async (nestedRunId: string, input: RunWorkflowInput): Promise<string> => {
    const handle = await DBOS.startWorkflow(registered)(nestedRunId, input);
    return handle.workflowID;
  };
  const ideactRun = async (
    runId: string,
    input: RunWorkflowInput = {},
  ): Promise<WorkerRunResult> => {
    // One agent per workflow execution in this process, built on its first step (not replayed ones).
    let agent: Promise<Agent> | undefined;
    const agentFor = (header: RunHeader): Promise<Agent> =>
      (agent ??= Promise.resolve().then(async () => {
        const root = await context.agentFor(
          input.agentName === undefined ? header : { ...header, agentName: input.agentName },
        );
        // A nested run's agent: the root agent's nested agent for the module its header names.
        return header.nestedModule === undefined ? root : root.nestedAgent(header.nestedModule);
      }));
    // The run between this execution's steps, so a step does not read what the previous one wrote.
    const session = new RunSession(context.store, runId);
    try {
      for (;;) {
        const outcome = await DBOS.runStep(() => agentStep(DBOS, context, session, agentFor), {
          name: 'agent-step',
        });
        if (outcome.kind === 'done') return outcome.result;
        if (outcome.kind === 'actor') {
          await actorCalls(DBOS, context, session, agentFor, outcome, (nestedRunId) =>
            startChild(nestedRunId, input),
          );
        }
      }
    } catch (error) {
      // Cancelled, or this worker stopping: neither is the run's failure.
      if (error instanceof sdk.Error.DBOSWorkflowCancelledError || context.stopSignal.aborted) {
        throw error;
      }
      // The run cannot go on here (no agent for it, not stored, the database gone): say so in the store.
      await DBOS.runStep(
        () =>
          context.store.append(runId, [
            { type: 'status', status: 'failed', time: new Date().toISOString() },
          ]),
        { name: 'mark-failed' },
      ).catch(() => undefined);
      throw error;
    }
  };
  const registered = DBOS.registerWorkflow(ideactRun, { name: RUN_WORKFLOW_NAME });
  return registered;
}

/**
 * An Actor step as one DBOS step per Call (`call <callId>`), all reserved at once in index order
 * (DBOS numbers a step before its first await, so a replay numbers them alike). Each waits for its
 * Call's inputs inside its body; see {@link ActorSession}. The next `agent-step` reads how it ended.
 */
async function actorCalls(
  DBOS: DbosSdk['DBOS'],
  context: RunWorkflowContext,
  session: RunSession,
  agentFor: (header: RunHeader) => Promise<Agent>,
  actor: { nodeId: number; callIds: string[]; moduleCallIds?: string[] },
  startChild: (nestedRunId: string) => Promise<string>,
): Promise<void> {
  const actorSession = new ActorSession(
    {
      store: context.store,
      runId: session.runId,
      session,
      agentFor,
      stopSignal: context.stopSignal,
      awaitChild: (workflowId) =>
        DBOS.getResult(workflowId, { pollingIntervalMs: CHILD_POLLING_MS }),
    },
    actor.callIds,
    actor.moduleCallIds,
  );
  const steps: Promise<unknown>[] = actor.callIds.map((callId) =>
    DBOS.runStep(() => actorSession.step(callId, DBOS.stepStatus?.cancelSignal), {
      name: `call ${callId}`,
    }),
  );
  steps.push(nestedChildren(DBOS, actorSession, actor.moduleCallIds ?? [], startChild));
  // Every step settled, then the Actor ended (it commits the turn after its last Call).
  const ended = Promise.allSettled(steps).then(async (outcomes) => {
    await actorSession.ended();
    return outcomes;
  });
  context.inFlight.add(ended);
  try {
    const outcomes = await ended;
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  } finally {
    context.inFlight.delete(ended);
  }
}

/**
 * Starts the child workflows of an Actor step's module Calls, in the order their nested runs are
 * handed off: each `nested-run` step records which Call comes next (any of those left, so a Call
 * waiting for another's output never blocks it), then its child workflow starts. A replay reads the
 * recorded order and gets DBOS's handles of the children it started before.
 */
async function nestedChildren(
  DBOS: DbosSdk['DBOS'],
  session: ActorSession,
  moduleCallIds: readonly string[],
  startChild: (nestedRunId: string) => Promise<string>,
): Promise<void> {
  const remaining = new Set(moduleCallIds);
  while (remaining.size > 0) {
    const turn = await DBOS.runStep(() => session.nextNested([...remaining]), {
      name: 'nested-run',
    });
    remaining.delete(turn.callId);
    try {
      session.childStarted(turn.callId, turn.runId === null ? null : await startChild(turn.runId));
    } catch (error) {
      // The Call fails with it (it is not left waiting); the workflow fails after the Actor ends.
      session.childFailed(turn.callId, error);
      throw error;
    }
  }
}

/** How often a module Call polls the system database for its child workflow's end. */
const CHILD_POLLING_MS = 200;

/** The body of one `agent-step`: an abandoned step never returns, so DBOS never records it. */
async function agentStep(
  DBOS: DbosSdk['DBOS'],
  context: RunWorkflowContext,
  session: RunSession,
  agentFor: (header: RunHeader) => Promise<Agent>,
): Promise<Exclude<AgentStepOutcome, { kind: 'abandoned' }>> {
  const cancelSignal = DBOS.stepStatus?.cancelSignal;
  // A database that went away (a connection error): again after 1, 2, 4, 8… s, up to 8 attempts.
  const running = retryWhileDatabaseDown(
    () =>
      runAgentStep({
        store: context.store,
        runId: session.runId,
        session,
        agentFor,
        reportActor: true,
        stopSignal: context.stopSignal,
        ...(cancelSignal === undefined ? {} : { cancelSignal }),
      }),
    { signals: [cancelSignal, context.stopSignal] },
  );
  context.inFlight.add(running);
  let outcome: AgentStepOutcome;
  try {
    outcome = await running;
  } catch (error) {
    // A stopping worker abandons the step (never recorded, as a Call's): the next worker runs it.
    if (context.stopSignal.aborted) return new Promise(() => undefined);
    throw error;
  } finally {
    context.inFlight.delete(running);
  }
  if (outcome.kind === 'abandoned') return new Promise(() => undefined);
  return outcome;
}
