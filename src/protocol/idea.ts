import type { JSONSchema } from './json-schema';
import type { Message } from './message';

/**
 * A saved, self-contained Request: context + schema (+ an optional solution). An Idea whose context
 * holds an `input` message is callable like a function (seed 002).
 */
export interface Idea {
  name?: string;
  description?: string;
  context: Message[];
  schema: JSONSchema;
  solution?: unknown;
  /**
   * Model settings of this Idea's own requests. Run as a module, an Idea that sets them keeps them;
   * otherwise its sub-request uses the calling run's (the agent's `model`, `temperature`).
   */
  settings?: IdeaSettings;
}

/** An Idea's own model settings (`idea.settings`): each field wins over the calling run's. */
export interface IdeaSettings {
  /** Model name for the Idea's requests. */
  model?: string;
  /** Sampling temperature for the Idea's requests. */
  temperature?: number;
}
