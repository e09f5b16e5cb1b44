/**
 * Every example in the README runs here: the TypeScript blocks as modules (with console.assert
 * made to throw, so a false claim fails), the control API's curl block against the real CLI.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCli } from './support/cli.js';

const README = await readFile(new URL('../README.md', import.meta.url), 'utf8');
const blocks = (lang: string) => [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const TMP = new URL('../.tmp/', import.meta.url);

describe('README', () => {
  const original = console.assert;
  beforeEach(() => {
    console.assert = (condition?: boolean, ...data: unknown[]) => {
      if (!condition) throw new Error(`README assertion failed ${data.join(' ')}`);
    };
  });
  afterEach(() => {
    console.assert = original;
  });

  it('has the two set-up commands', () => {
    expect(blocks('sh').slice(0, 2)).toEqual(['npm ci && npm start\n', 'npm ci && npm test\n']);
  });

  it.each(blocks('ts').map((code, i) => [i + 1, code]))('TypeScript example %i runs and its assertions hold', async (n, code) => {
    await mkdir(TMP, { recursive: true });
    const file = new URL(`readme-example-${n}.ts`, TMP);
    await writeFile(file, `${code}\nexport {};\n`);
    await import(/* @vite-ignore */ `${file.href}?t=${Date.now()}`);
    expect(code).toContain('console.assert');
  });

  it('the control API curl examples work against the real server', async () => {
    const cli = await startCli(['--quiet']);
    const script = blocks('sh').find((b) => b.includes('/_fakehands/health'))!.replaceAll('http://127.0.0.1:3000', cli.url);
    const { stdout } = await promisify(execFile)('bash', ['-c', `set -e\n${script.replaceAll(/^curl /gm, 'curl -f ').replaceAll('\ncurl', '\necho\ncurl')}`]);
    const lines = stdout.split('\n').filter(Boolean);
    expect(JSON.parse(lines[0]!)).toEqual({ status: 'ok' });
    expect(JSON.parse(lines[1]!)).toEqual({ status: 'ok' });
    expect(JSON.parse(lines[2]!)).toMatchObject({ status: 'STARTING' });
    expect(JSON.parse(lines[3]!)).toEqual({ now: expect.any(String) });
    expect(JSON.parse(lines[4]!)).toMatchObject({ kind: 'status', status: 503, remaining: 2 });
    expect(JSON.parse(lines[5]!)).toMatchObject({ faults: [{ path: '/api/v1/sandboxes/:sandbox_id/pause' }] });
    expect(JSON.parse(lines[6]!)).toEqual({ cleared: 1 });
    expect(JSON.parse(lines[7]!).requests).toEqual([expect.objectContaining({ method: 'POST', path: '/api/v1/sandboxes', status: 200 })]);
    expect(JSON.parse(lines[8]!)).toMatchObject({ sandboxes: [{ status: 'RUNNING' }] });
  });
});
