import type { IdeaSettings } from '../protocol/idea';
import type { JSONSchema } from '../protocol/json-schema';
import type { RunEvent } from './run-event';
import type { AgentLimits, AgentNode, AgentState, AgentUsage, NextStep } from './agent-state';

/**
 * Where runs live between processes (issue 18): a run is created with its first state, then grows by
 * journal entries (one commit per step, call starts and ends), and is loaded back as its latest state.
 * `FileRunStore` (a folder per run, no server) and `PostgresRunStore` implement it; so can you.
 */
export interface RunStore {
  /** Records a new run with its initial state. Rejects when a run with that id exists. */
  create(header: RunHeader, state: AgentState): Promise<void>;
  /**
   * Appends journal entries in order; resolves once they survive the process being killed (written
   * to the file / committed). Machine-crash durability may be deferred and batched: see `flush`.
   */
  append(runId: string, entries: readonly JournalEntry[]): Promise<void>;
  /** Resolves once everything appended so far survives a machine crash (fsync); a run awaits it at its end. */
  flush?(): Promise<void>;
  /** The run's header, latest state and open Calls; undefined when the store has no such run. */
  load(runId: string): Promise<StoredRun | undefined>;
  /** Runs, newest first, optionally filtered. */
  list(filter?: RunFilter): Promise<RunSummary[]>;
  /** Removes a run and everything stored for it (its nested runs too). */
  delete(runId: string): Promise<void>;
  /** Releases connections or file handles (a no-op for stores that hold none). */
  close?(): Promise<void>;
  /**
   * Appends a served run's events (issue 32: `createRunHandler` journals the events it streams, so
   * `Last-Event-ID` resumes after a restart and on another server sharing the store), in order,
   * numbered by the writer from 1 on; resolves once they survive the process being killed. Optional:
   * a store without it keeps served events in memory only (ids then hold for one process).
   */
  appendEvents?(runId: string, events: readonly StoredRunEvent[]): Promise<void>;
  /** The run's journaled events with `seq` greater than `after` (default 0: all), in order. */
  readEvents?(runId: string, after?: number): Promise<StoredRunEvent[]>;
}

/** One journaled event of a served run: its number in the run's event journal (1, 2, …) and the event. */
export interface StoredRunEvent {
  seq: number;
  event: RunEvent;
}

/**
 * Every status a run may have, in one place (issue 27 item 11): the stores check journal lines and
 * run files against it, `ideact runs list --status` accepts exactly these, and {@link RunStatus} is
 * derived from it, so a new status cannot be added to one and missed by another.
 */
export const RUN_STATUSES = [
  'running',
  'awaiting_approval',
  'planned',
  'completed',
  'stopped',
  'failed',
  'cancelled',
] as const;

/** A run's status as stores and `ideact runs` show it (one of {@link RUN_STATUSES}). */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** True when `value` is one of {@link RUN_STATUSES} (a stored or typed status is checked with it). @internal */
export function isRunStatus(value: unknown): value is RunStatus {
  return (RUN_STATUSES as readonly unknown[]).includes(value);
}

/** What a store keeps about a run besides its state. */
export interface RunHeader {
  runId: string;
  /** For a nested agent's run: the run whose Call started it. */
  parentRunId?: string;
  /** For a nested agent's run: the id of the module Call (in the parent) that started it. */
  parentCallId?: string;
  /** The task the run started with, if any. */
  task?: string;
  /** ISO time the run was created. */
  createdAt: string;
  /**
   * For a nested agent's run a worker executes as a child workflow: the module it runs, so any
   * worker rebuilds the nested agent from the root agent (`agent.nestedAgent(header)`).
   */
  nestedModule?: NestedModule;
  /**
   * Where the run's agent came from when it was not defined in code: the Idea file `ideact run` built
   * it from, so `ideact runs show` can print the command that resumes the run. Absent for runs of
   * agents defined in code (and for nested runs: they resume with their parent).
   */
  origin?: RunOrigin;
  /**
   * Names an entry point records with a top-level run, kept as given and filtered on by `list`: the
   * HTTP run handler records the principal that owns the run and the agent it started (issue 32).
   */
  labels?: Record<string, string>;
  /**
   * For a run an eval started (`ideact eval`, `runEval`): the experiment and the case it ran, so a
   * stored run leads back to its experiment and an experiment's runs can be found in the store.
   */
  experiment?: RunExperiment;
}

/** The experiment a run belongs to (`RunHeader.experiment`): which eval case and trial it ran. */
export interface RunExperiment {
  /** The experiment's id (the name of its results file). */
  id: string;
  /** The case's name. */
  case: string;
  /** 1 for the case's first trial, then 2, 3… (`--trials N`). */
  trial: number;
}

/**
 * The Idea a run's agent was built from (`ideact run <idea>`), as recorded in its header: what
 * `ideact runs resume <id> --idea <idea> [--module-root <dir>]` needs to rebuild the same agent.
 */
export interface RunOrigin {
  /** The Idea file, as an absolute path. */
  idea: string;
  /** The module root given with `--module-root` (absolute); absent: the Idea's own folder. */
  moduleRoot?: string;
}

/**
 * The module a nested agent runs (R-MOD-5), as stored with its run: the Idea's schema (a Vessel whose
 * Calls offer the module's Tools), the depth it runs at and the module chain from the root agent.
 */
export interface NestedModule {
  /** The module's canonical id (file path or URL), the chain's last entry. */
  id: string;
  /** The Tool whose Call runs the module (in the parent run). */
  toolName: string;
  /** The module Idea's schema as loaded when the run started (it names the nested agent's Tools). */
  schema: JSONSchema;
  /** 1 for a module the top-level agent called. */
  depth: number;
  /** Module ids from the root agent to this one (cycle detection). */
  chain: string[];
  /**
   * The model settings the nested agent runs with (the module Idea's own, else the calling run's),
   * so a worker that rebuilds it from the header asks the same model (DESIGN §8).
   */
  settings?: IdeaSettings;
}

/** A row of `store.list()`. */
export interface RunSummary extends RunHeader {
  status: RunStatus;
  /** The stop reason once the run stopped. */
  stopReason?: string;
  /** ISO time of the last journal entry. */
  updatedAt: string;
}

/** Filters of `store.list()`. */
export interface RunFilter {
  status?: RunStatus | RunStatus[];
  /** Only the nested runs of this run (`null`: only top-level runs). */
  parentRunId?: string | null;
  /** At most this many (newest first). */
  limit?: number;
  /** Only runs whose header has every one of these labels with these values. */
  labels?: Record<string, string>;
  /** Only the runs an eval started for this experiment (`RunHeader.experiment.id`, issue 33). */
  experiment?: string;
}

/** A Call that started (journal) and has no recorded end: on resume it runs again, `attempt + 1`. */
export interface OpenCall {
  callId: string;
  /** How many times it was started (1 = once). */
  attempt: number;
}

/** What `store.load()` returns. */
export interface StoredRun {
  header: RunHeader;
  status: RunStatus;
  state: AgentState;
  /** Attempts recorded per Call id (started, whether or not they ended). */
  attempts: Record<string, number>;
  /** Calls started without a recorded end (a crash between start and end). */
  openCalls: OpenCall[];
}

/**
 * One step's changes to the state: the nodes appended since the previous commit (from index `from`,
 * nodes past it in the stored state are dropped: a rolled-back step), and the small fields, replaced.
 */
export interface CommitEntry {
  type: 'commit';
  /** Index of the first node in `nodes`; the stored state keeps nodes before it and drops the rest. */
  from: number;
  nodes: AgentNode[];
  head: number | null;
  nextStep: NextStep;
  usage: AgentUsage;
  limits: AgentLimits;
  status: RunStatus;
  /** ISO time. */
  time: string;
}

/** A Call started (attempt n), so a crash before its end makes a resume run it again with n + 1. */
export interface CallStartEntry {
  type: 'call-start';
  callId: string;
  attempt: number;
  time: string;
}

/** A Call ended; its result is in the next commit. */
export interface CallEndEntry {
  type: 'call-end';
  callId: string;
  ok: boolean;
  time: string;
}

/** The run's status changed outside a step (e.g. `ideact runs cancel`). */
export interface StatusEntry {
  type: 'status';
  status: RunStatus;
  time: string;
}

/** One line of a run's journal. */
export type JournalEntry = CommitEntry | CallStartEntry | CallEndEntry | StatusEntry;
