/**
 * The README's CI block runs as printed: `serve` in the background, `verify` against it, and
 * `drift` against the real servers' published documents, here their committed trimmed snapshots
 * (test/drift/real-*.openapi.json, copies of the files the block names by address), with free
 * ports for 3000 and 8000 and this checkout's command for `npx fakehands`.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { README_FILE, readmeBlocks } from '../support/readme.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const PUBLISHED = 'https://raw.githubusercontent.com/OpenHands/docs/main/openapi/';
/** Each published document the block names, and the snapshot of it the tests hold. */
const SNAPSHOTS: Record<string, string> = {
  'openhands-cloud.json': 'test/drift/real-app-server.openapi.json',
  'V0_openapi.json': 'test/drift/real-app-server-v0.openapi.json',
  'agent-sdk.json': 'test/drift/real-agent-server.openapi.json',
};

/** A port free now (the system's pick, released at once). */
const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe("the README's CI block", () => {
  it('names the three published documents by their addresses', () => {
    const block = readmeBlocks('sh', README_FILE).find((code) => code.includes('fakehands drift'))!;
    expect([...block.matchAll(/https:\/\/\S+/g)].map((m) => m[0])).toEqual(Object.keys(SNAPSHOTS).map((name) => PUBLISHED + name));
  });

  it('serves, verifies the contracts and holds the fake against the documents, exiting 0', async () => {
    const [port, agentPort] = [await freePort(), await freePort()];
    let script = readmeBlocks('sh', README_FILE).find((code) => code.includes('fakehands drift'))!;
    for (const [name, snapshot] of Object.entries(SNAPSHOTS)) script = script.replaceAll(PUBLISHED + name, `${ROOT}${snapshot}`);
    script = script
      .replaceAll('npx fakehands', `node ${ROOT}bin/fakehands.js`)
      .replaceAll('--port 3000', `--port ${port}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
      .replaceAll('--agent-port 8000', `--agent-port ${agentPort}`);
    const run = await promisify(execFile)('bash', ['-c', `set -eo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n${script}`], {
      cwd: ROOT,
      env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect('code' in run ? run.code : 0, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/^drift: 0 undeclared difference\(s\) \(the check passes/m);
    expect(run.stdout.match(/^drift: /gm)).toHaveLength(2);
  }, 240_000);
});
