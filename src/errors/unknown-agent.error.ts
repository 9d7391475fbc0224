import { InputError } from './input.error';

/**
 * A run names an agent (`enqueueRun({ agentName })`) that the worker does not serve, e.g. no Idea
 * of that name in `ideact worker --ideas DIR`, or a run without a name on a worker with several.
 */
export class UnknownAgentError extends InputError {
  static override readonly code = 'UNKNOWN_AGENT';

  /** The name the run gave (undefined: none). */
  readonly agentName: string | undefined;

  constructor(options: { agentName: string | undefined; known: readonly string[] }) {
    const known = options.known.length === 0 ? 'none' : options.known.join(', ');
    super({
      message:
        options.agentName === undefined
          ? `The run names no agent and this worker serves several (${known}). Enqueue it with \`agentName\` (\`ideact runs enqueue --agent NAME\`).`
          : `This worker serves no agent "${options.agentName}" (it serves: ${known}). Start a worker with that Idea, or enqueue the run with one of these names.`,
    });
    this.agentName = options.agentName;
  }
}
