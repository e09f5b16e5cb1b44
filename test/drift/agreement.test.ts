/**
 * `fakehands drift` says how much of a pass is declared: the summary gives the share of facts that
 * agree and the share that differ under a declared difference, warns when the declared outweigh the
 * agreeing, and `--min-agreement SHARE` fails the check under a share, however much is declared.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';

const REAL_V1 = 'test/drift/real-app-server.openapi.json';
const REAL_AGENT = 'test/drift/real-agent-server.openapi.json';

/** The JSON report's fact counts of `args`. */
async function factsOf(args: string[]): Promise<{ total: number; agree: number; declared: number }> {
  const { stdout } = await runCliInProcess(['drift', ...args, '--json']);
  return (JSON.parse(stdout) as { facts: { total: number; agree: number; declared: number } }).facts;
}
const percent = (n: number, total: number) => `${((100 * n) / total).toFixed(1)}%`;

describe('fakehands drift: the share of declared differences', () => {
  it('--agent against the real agent server passes saying how many facts agree and how many differ as declared, with a note that the declared outweigh', async () => {
    const facts = await factsOf(['--agent', '--spec', REAL_AGENT]);
    expect(facts.declared).toBe(facts.total - facts.agree);
    const { code, stdout } = await runCliInProcess(['drift', '--agent', '--spec', REAL_AGENT]);
    const summary = stdout.trim().split('\n').slice(-4);
    expect(summary[0]).toMatch(
      new RegExp(
        `^drift: 0 undeclared difference\\(s\\) \\(the check passes with ${percent(facts.agree, facts.total)} of facts agreeing and ${percent(facts.declared, facts.total)} differing as declared\\), \\d+ declared`,
      ),
    );
    expect(summary[2]).toBe(
      `  facts of the compared operations: ${facts.agree} of ${facts.total} agree (${percent(facts.agree, facts.total)}), ${facts.declared} differ as declared (${percent(facts.declared, facts.total)}), 0 undeclared (0.0%)`,
    );
    expect(summary[3]).toBe(
      '  note: more facts differ as declared than agree: the check says every difference is known, not that the fake matches the document (--min-agreement SHARE fails under a share)',
    );
    expect(code).toBe(0);
  });

  it('--min-agreement fails the check when fewer facts agree, and passes when as many or more do', async () => {
    const agent = await factsOf(['--agent', '--spec', REAL_AGENT]);
    const under = await runCliInProcess(['drift', '--agent', '--min-agreement', '0.9', '--spec', REAL_AGENT]);
    expect(under.code).toBe(1);
    expect(under.stdout).toContain(
      `drift: 0 undeclared difference(s) (the check fails: ${percent(agent.agree, agent.total)} of facts agree, under --min-agreement 0.9), `,
    );
    const app = await factsOf(['--spec', REAL_V1]);
    const floor = Math.floor((100 * app.agree) / app.total) / 100;
    const over = await runCliInProcess(['drift', '--min-agreement', String(floor), '--spec', REAL_V1]);
    expect(over.code).toBe(0);
    expect(over.stdout).toContain(`(the check passes with ${percent(app.agree, app.total)} of facts agreeing`);
    expect(over.stdout).not.toContain('note: more facts differ as declared');
  });

  it('refuses a --min-agreement that is not a share from 0 to 1', async () => {
    for (const bad of ['90', 'most', '1.5'])
      expect(await runCliInProcess(['drift', '--min-agreement', bad, '--spec', REAL_V1])).toEqual({
        code: 2,
        stdout: '',
        stderr: `fakehands: invalid --min-agreement "${bad}": expected a share from 0 to 1, e.g. 0.9 (see fakehands drift --help)\n`,
      });
  });
});
