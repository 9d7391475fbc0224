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
}
