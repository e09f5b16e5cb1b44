/**
 * `fakehands llm` (src/cli/llm.ts): bad flags and script files are one line naming the flag, and
 * exit 2; good ones start the scripted LLM.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLlm } from '../../src/cli/llm.js';

describe('fakehands llm', () => {
  it('refuses a port that is not a number, naming the flag (not as a failure to listen)', async () => {
    await expect(runLlm(['--port', 'abc'], {})).rejects.toThrow('invalid --port "abc": expected a whole number (see fakehands llm --help)');
  });

  it('refuses a scripts file that is not JSON, and a script step no model turn stands for', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-llm-'));
    await writeFile(join(dir, 'bad.json'), '{not json');
    await writeFile(join(dir, 'browser.json'), JSON.stringify([{ steps: [{ browser_go_back: true }] }]));
    await expect(runLlm(['--scripts', join(dir, 'bad.json')], {})).rejects.toThrow(
      `invalid --scripts "${join(dir, 'bad.json')}": not valid JSON`,
    );
    await expect(runLlm(['--scripts', join(dir, 'browser.json')], {})).rejects.toThrow(
      "is a 'browser_go_back' step, which no model answer stands for",
    );
  });

  it('starts the scripted LLM from a scripts file on a free port, and answers its model list', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-llm-'));
    await writeFile(join(dir, 'scripts.json'), JSON.stringify([{ steps: [{ message: 'Hi.' }] }]));
    const started = await runLlm(['--scripts', join(dir, 'scripts.json'), '--port', '0'], {});
    if (started === 'help') throw new Error('expected a server');
    try {
      const models = (await (await fetch(`${started.url}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data.map((m) => m.id)).toEqual(['fakehands-scripted']);
    } finally {
      await started.close();
    }
  });
});
