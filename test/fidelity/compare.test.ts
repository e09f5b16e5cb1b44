/**
 * How the differential suite turns two answers into facts (src/real/compare.ts), how a declared
 * difference covers one (src/real/declared.ts), and how the real servers' provisioning fails on a
 * machine without Python (src/real/provision.ts): the parts of `npm run test:real` that need no
 * Python, run in `npm test`.
 */
import { describe, expect, it } from 'vitest';
import { bodyFacts, sequenceFacts, shapeOf, statusFact } from '../../src/real/compare.js';
import { findPython, install, ProvisionError, REAL_PACKAGES } from '../../src/real/provision.js';
import { runCommand } from '../../src/cli.js';
import { DECLARED_CONTRACT_DIFFERENCES, DECLARED_REAL_DIFFERENCES, declaredContractFailure, declaredFor } from '../../src/real/declared.js';
import { cell } from '../../scripts/docs-reference.js';
import { docPage } from '../support/readme.js';

describe('shapeOf', () => {
  it('keeps keys and JSON types, normalises ids, times and id keys, and keeps the vocabulary fields as values', () => {
    expect(
      shapeOf({
        id: '250606d4-6def-4fa5-bfa9-bd1b38156b0e',
        created_at: '2026-12-02T06:09:39.268630Z',
        kind: 'MessageEvent',
        title: 'Anything',
        n: 0.0,
        m: 1.5,
        usage: { '6cbe27b5ec124ef48db7d8a3d4f1ea63': true },
        items: [{ a: 1 }, { a: 2 }, { b: null }],
      }),
    ).toEqual({
      created_at: '<datetime>',
      id: '<id>',
      items: [{ a: 'number' }, { b: 'null' }],
      kind: '="MessageEvent"',
      m: 'number',
      n: 'number',
      title: 'string',
      usage: { '<id>': 'boolean' },
    });
  });
});

describe('bodyFacts', () => {
  it('is one fact per leaf path of either side, agreeing where the shapes do', () => {
    const facts = bodyFacts('step', { a: 1, b: 'x', c: null }, { a: 2, b: 3 });
    expect(facts.map((f) => [f.id, f.real, f.fake, f.agree])).toEqual([
      ['step › a', 'number', 'number', true],
      ['step › b', 'string', 'number', false],
      ['step › c', 'null', 'absent', false],
    ]);
  });

  it('compares a 422 detail by its type, location and message as values', () => {
    const real = { detail: [{ type: 'missing', loc: ['body', 'workspace'], msg: 'Field required', input: {} }] };
    const fake = { detail: [{ type: 'missing', loc: ['body', 'agent'], msg: 'Field required', input: {} }] };
    const differing = bodyFacts('s', real, fake).filter((f) => !f.agree);
    expect(differing.map((f) => [f.id, f.real, f.fake])).toEqual([['s › detail[].loc[]', '="body"|="workspace"', '="agent"|="body"']]);
  });
});

describe('statusFact and sequenceFacts', () => {
  it('compare a status, and a sequence position by position with its length', () => {
    expect(statusFact('s', 404, 400)).toEqual({ id: 's › status', real: '404', fake: '400', agree: false });
    expect(sequenceFacts('e', ['a', 'b'], ['a']).map((f) => [f.id, f.agree])).toEqual([
      ['e › length', false],
      ['e › [0]', true],
      ['e › [1]', false],
    ]);
  });
});

describe('declaredFor', () => {
  const list = [{ fact: 'app server › GET * › status', real: '404', kind: 'deliberate' as const, reason: 'because' }];

  it('covers a fact whose id matches the pattern and whose sides match what it names', () => {
    expect(declaredFor({ id: 'app server › GET /api/x › status', real: '404', fake: '200', agree: false }, list)?.reason).toBe('because');
  });

  it('covers nothing else: another id, or another value on a named side', () => {
    expect(declaredFor({ id: 'agent server › GET /api/x › status', real: '404', fake: '200', agree: false }, list)).toBeNull();
    expect(declaredFor({ id: 'app server › GET /api/x › status', real: '500', fake: '200', agree: false }, list)).toBeNull();
  });

  it('gives every declared difference of fakehands a kind and a reason of a sentence', () => {
    expect(DECLARED_REAL_DIFFERENCES.length).toBeGreaterThan(5);
    for (const entry of DECLARED_REAL_DIFFERENCES) {
      expect(['real-bug', 'deliberate', 'gap']).toContain(entry.kind);
      expect(entry.reason.length, entry.fact).toBeGreaterThan(40);
    }
  });
});

describe('the real servers on a machine without Python >= 3.12', () => {
  const noPython = { PATH: '/nonexistent', PYENV_ROOT: '/nonexistent', FAKEHANDS_REAL_CACHE: '/nonexistent/cache', HOME: '/nonexistent' };

  it('finds no Python, and install says so in one line naming what to set', async () => {
    expect(await findPython(noPython)).toBeNull();
    const failed = await install('agent-server', { env: noPython }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProvisionError);
    expect((failed as Error).message).toBe(
      'no Python >= 3.12 with venv found (tried python3.12, python3.13, python3.14, python3, ~/.pyenv/versions/*; set FAKEHANDS_PYTHON to one)',
    );
  });

  it('pins the versions the real: line names', () => {
    expect(REAL_PACKAGES['agent-server']).toEqual({ pkg: 'openhands-agent-server', version: '1.58.2' });
    expect(REAL_PACKAGES['app-server']).toEqual({ pkg: 'openhands-ai', version: '1.11.0' });
  });

  it('fakehands real install exits 3 with that line, which npm run test:real takes as a skip', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const saved = { ...process.env };
    Object.assign(process.env, noPython);
    try {
      const code = await runCommand(['real', 'install', 'agent-server'], process.env, {
        stdout: (t) => out.push(t),
        stderr: (t) => err.push(t),
        cwd: process.cwd(),
        script: '',
      });
      expect(code).toBe(3);
    } finally {
      for (const key of Object.keys(noPython)) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
    expect(out).toEqual([]);
    expect(err.join('')).toMatch(/^fakehands real: no Python >= 3\.12 with venv found/);
  });
});

describe('the reference page of declared differences', () => {
  it('lists every declared difference and declared contract failure with its reason', () => {
    const page = docPage('docs/reference/differences.md');
    const table = page.slice(page.indexOf('## Against the running real servers'));
    const missing = [...DECLARED_REAL_DIFFERENCES.map((d) => d.reason), ...DECLARED_CONTRACT_DIFFERENCES.map((d) => d.reason)].filter(
      (reason) => !table.includes(cell(reason)),
    );
    expect(missing).toEqual([]);
  });
});

describe('declaredContractFailure', () => {
  it("covers a verify failure line of a V0 interaction on the 1.x app server, and not another interaction's", () => {
    const v0 = 'interaction failed: Given the service is up - a request to store a git provider token (status: expected 200 but was 404)';
    expect(declaredContractFailure(v0)?.kind).toBe('deliberate');
    expect(
      declaredContractFailure(
        'interaction failed: Given the service is up - a request for the sandbox specs (status: expected 200 but was 500)',
      ),
    ).toBeNull();
  });
});
