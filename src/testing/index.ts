/**
 * `ideact/testing` — helpers for users' own tests: the scripted provider that replays solutions and
 * records every request it received.
 */
export {};
