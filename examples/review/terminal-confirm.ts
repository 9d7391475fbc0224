/**
 * A `confirm` hook (R-LOOP-4) that asks in the terminal about every Call: approve, edit (type new
 * params as one JSON line, merged over the proposal) or reject (type the reason the LLM will see).
 * It reads lines, so it works with a keyboard and with piped stdin alike.
 */
import type { Call, ConfirmCalls, ConfirmDecision } from 'ideact';

/** Where the hook reads answers and writes prompts. */
export interface TerminalIo {
  /** The answer lines, in order (e.g. `readline.createInterface({ input })[Symbol.asyncIterator]()`). */
  lines: AsyncIterator<string>;
  /** Writes a prompt. */
  write: (text: string) => void;
  /** Repeat each answer after its prompt (for piped input, which the terminal does not echo). */
  echo?: boolean;
}

/** Builds the hook; input that ends early rejects the remaining Calls with that reason. */
export function terminalConfirm(io: TerminalIo): ConfirmCalls {
  const ask = async (prompt: string): Promise<string | undefined> => {
    io.write(prompt);
    const next = await io.lines.next();
    const answer = next.done === true ? undefined : next.value.trim();
    if (io.echo === true) io.write(`${answer ?? '(end of input)'}\n`);
    return answer;
  };

  const decide = async (call: Call): Promise<ConfirmDecision> => {
    const { _tool, _reasoningForCall, ...params } = call;
    io.write(`\n${_tool} ${JSON.stringify(params)}\n`);
    if (typeof _reasoningForCall === 'string') io.write(`  why: ${_reasoningForCall}\n`);
    for (;;) {
      const answer = await ask('[a]pprove / [e]dit / [r]eject? ');
      if (answer === undefined) return { reject: 'no answer (the input ended)' };
      const choice = answer.toLowerCase();
      if (choice === 'a' || choice === 'approve') return { approve: true };
      if (choice === 'r' || choice === 'reject') {
        return { reject: (await ask('reason: ')) || 'rejected without a reason' };
      }
      if (choice === 'e' || choice === 'edit') {
        const line = await ask('new params as JSON: ');
        if (line === undefined) return { reject: 'no answer (the input ended)' };
        try {
          const edited: unknown = JSON.parse(line);
          if (typeof edited === 'object' && edited !== null && !Array.isArray(edited)) {
            return { edit: { ...call, ...edited, _tool } };
          }
        } catch {
          // fall through to the hint below
        }
        io.write('  that is not a JSON object, e.g. {"to": "someone@example.com"}\n');
        continue;
      }
      io.write('  answer a, e or r\n');
    }
  };

  return async (calls) => {
    const decisions: ConfirmDecision[] = [];
    for (const call of calls) decisions.push(await decide(call));
    return decisions;
  };
}
