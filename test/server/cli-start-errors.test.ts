/**
 * What `fakehands serve`, `canvas` and `real` say when a start cannot go ahead, or when
 * asked for help: one line on stderr naming the flag, variable, file or port at fault, and the help
 * of the command whose options they are; `--help` of every command prints and exits 0 (drift's
 * errors, which name the document's file, are test/drift/drift.test.ts's).
 */
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { freeLocalPort } from '../support/free-port.js';

/** Holds a free port on 127.0.0.1 while `use` runs. */
async function whileTaken<T>(use: (port: number) => Promise<T>): Promise<T> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  try {
    return await use((blocker.address() as { port: number }).port);
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
}

describe('fakehands serve: the agent host port', () => {
  it('an --agent-port in use exits 2 naming the flag and the port, and never moves to another', async () => {
    const run = await whileTaken((port) =>
      runCliInProcess(['serve', '--host', '127.0.0.1', '--port', '0', '--agent-port', String(port)]).then((r) => ({ ...r, port })),
    );
    expect([run.code, run.stderr]).toEqual([
      2,
      `fakehands: agent port ${run.port} on 127.0.0.1 (--agent-port) is in use; pass --agent-port 0 for a free one\n`,
    ]);
  });

  it('--port and --agent-port naming one port exits 2 saying so, not "in use"', async () => {
    const port = await freeLocalPort();
    expect(await runCliInProcess(['serve', '--port', String(port), '--agent-port', String(port)])).toEqual({
      code: 2,
      stdout: '',
      stderr: `fakehands: --port and --agent-port both name port ${port}: the app server and the agent host need one each; change one of them (0 picks a free one)\n`,
    });
  });

  it("--port 8000 without --agent-port exits 2 naming the agent host's default port", async () => {
    expect(await runCliInProcess(['serve', '--port', '8000'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "fakehands: --port 8000 is the agent host's default port: pass --agent-port with another one (0 for a free one)\n",
    });
  });
});

describe('fakehands serve: bad options', () => {
  it('a bad FAKEHANDS_PORT names the environment variable, not --port', async () => {
    expect(await runCliInProcess(['serve'], { FAKEHANDS_PORT: 'abc' })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands: invalid FAKEHANDS_PORT "abc": expected a port number 0-65535 (see fakehands serve --help)\n',
    });
  });

  it('an unknown option points at `fakehands serve --help`, and under canvas at `fakehands canvas --help`', async () => {
    expect((await runCliInProcess(['serve', '--bogus'])).stderr).toBe('fakehands: unknown option --bogus (see fakehands serve --help)\n');
    expect(await runCliInProcess(['canvas', '--bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands: unknown option --bogus (see fakehands canvas --help)\n',
    });
  });

  it('a missing --fixture file is advised with the flag, not the library option', async () => {
    const file = join(tmpdir(), 'fakehands-no-such-fixture.json');
    expect(await runCliInProcess(['serve', '--port', '0', '--fixture', file])).toEqual({
      code: 2,
      stdout: '',
      stderr: `fakehands: Failed to load the fixture at ${file}: no such file (a fixture is "default", "empty", or a path to a JSON file). Fix the file, or pass --fixture default or --fixture empty.\n`,
    });
  });
});

describe('--help of every command', () => {
  it('fakehands canvas --help prints its option and the serve options it takes, and exits 0', async () => {
    const run = await runCliInProcess(['canvas', '--help']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^Usage: fakehands canvas \[--canvas-port PORT\] \[--online\] \[options of fakehands serve\]\n/);
    expect(run.stdout).toContain('--canvas-port  Port of the Agent Canvas page (default 3001; 0 picks a free one)');
    expect(run.stdout).toContain('--agent-port');
    expect(run.stdout).not.toContain('fakehands.config.json');
  });

  it('fakehands real start --help and real install --help print the help and exit 0, starting nothing', async () => {
    for (const verb of ['start', 'install']) {
      const run = await runCliInProcess(['real', verb, '--help']);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(
        /^Usage: fakehands real install \[agent-server\|app-server\]\n {7}fakehands real start \[--scripts FILE\]\n/,
      );
    }
  });

  it('fakehands real start with an unknown option exits 2 naming it', async () => {
    expect(await runCliInProcess(['real', 'start', '--bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands real start: unknown option "--bogus" (see fakehands real --help)\n',
    });
  });
});
