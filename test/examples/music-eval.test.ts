import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runEval, type EvalSpec, type ExperimentResult } from 'ideact';
import { REPO_ROOT, runCli } from '../cli/run-cli';
import { stayOffline } from './capture-stdout';

/**
 * Issue 33 ("Done when"): examples/music has an eval file that runs offline — the scripted producer,
 * composer and sound designer, and a scripted judge — with one case that passes and one that fails
 * on purpose (the script always writes one ballad), and the documented command runs it.
 */

const MUSIC = path.join(REPO_ROOT, 'examples', 'music');

describe('examples/music/music.eval.ts (issue 33)', () => {
  let result: ExperimentResult;
  beforeAll(async () => {
    stayOffline();
    const spec = (await import('../../examples/music/music.eval')).default as EvalSpec;
    result = await runEval(spec, { baseDir: MUSIC, name: 'music' });
  });

  it('the ballad case passes every scorer, toolCalled finding the melody Call inside the nested composer', () => {
    const ballad = result.cases[0]!;
    expect(ballad.name).toBe('ballad-and-rain');
    expect(ballad.passed).toBe(true);
    const reasons = Object.fromEntries(
      ballad.trials[0]!.scores.map((score) => [score.scorer, score.reason]),
    );
    expect(reasons).toEqual({
      schema: 'the output validates against the schema',
      'melody written (in the composer)': 'melody called 1× (at least 1) in composer.json',
      maxTurns: '2 turn(s), within the limit of 3',
      judge:
        '3 of 3 vote(s) pass (mean score 1.00, majority): The brief asks for 1 song(s) and the record has 1.',
      'contains(tracks)': 'tracks[0] matches {"kind":"ambience"}',
      'ambience asked of the sound designer':
        'soundDesigner with {"role":"effect"} called 1× (at least 1) by the agent',
    });
  });

  it('the two-ballads case fails, and says why: one composer Call, and the judge counted one song', () => {
    const twoBallads = result.cases[1]!;
    expect(twoBallads.passed).toBe(false);
    const failed = twoBallads.trials[0]!.scores.filter((score) => !score.passed);
    expect(failed.map((score) => [score.scorer, score.reason])).toEqual([
      [
        'judge',
        '0 of 3 vote(s) pass (mean score 0.25, majority): The brief asks for 2 song(s) but the record has 1.',
      ],
      ['two songs composed', 'composer called 1× (at least 2) by the agent'],
    ]);
    expect(result.thresholds).toEqual([
      { name: 'passRate', required: 0.5, actual: 0.5, passed: true },
    ]);
    expect(result.passed).toBe(true);
  });

  it('`ideact eval examples/music/music.eval.ts` (what npm run eval runs) loads it with tsx and exits 0', async () => {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'ideact-music-eval-'));
    try {
      const run = await runCli([
        'eval',
        'examples/music/music.eval.ts',
        '--dir',
        path.join(scratch, 'runs'),
        '--experiments',
        path.join(scratch, 'evals'),
      ]);
      expect(run.stderr).toContain('[2/2]');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/\ntwo-ballads\s+0\.\d\d\s+0\/1\s+FAIL\s+judge: /);
      expect(run.stdout).toContain('✓ threshold passRate: 0.50 ≥ 0.5');
      expect(await fs.readdir(path.join(scratch, 'evals'))).toEqual(
        expect.arrayContaining([expect.stringMatching(/^music-\d{8}T\d{6}-[0-9a-f]{4}\.json$/)]),
      );
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
