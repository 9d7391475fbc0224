import * as path from 'node:path';
import { createContainer, Executor, toolSchema } from 'ideact';
import { ScriptedProvider } from 'ideact/testing';
import { Lyricist } from './fixtures/lyricist';

/**
 * A generated class works as a Tool at run time (issue 7 item 2, R-MOD-1, R-MOD-4): a typed
 * `executor.call(Lyricist, params)` runs the Idea as an upfront-resolved module in a clean room and
 * resolves to its output.
 */
const FIXTURES = path.join(__dirname, 'fixtures');

describe('generated Tool class at run time', () => {
  it('executor.call(Lyricist, params) runs the Idea module and returns its typed output', async () => {
    const provider = new ScriptedProvider([{ title: 'Rain', verses: ['drip'] }]);
    const container = createContainer({ tools: [Lyricist], provider, moduleRoot: FIXTURES });
    const executor = container.get(Executor);

    const output = await executor.call(Lyricist, { topic: 'snow', mood: 'happy' });

    expect(output).toEqual({ title: 'Rain', verses: ['drip'] });
    expect(provider.requests).toHaveLength(1);
    const sent = JSON.stringify(provider.requests[0]!.messages);
    expect(sent).toContain('You are a lyricist.'); // the module's own context
    expect(sent).toContain('snow'); // the params as its input message
    expect(provider.requests[0]!.schema).toEqual(toolSchema(Lyricist).properties._output);
  });
});
