import { describe, expect, it } from 'vitest';
import { REALISTIC_TIMINGS, nextTaskStep, settleSandboxStatus } from '../../src/domain/time/lifecycle.js';
import { createFake } from '../../src/index.js';
import { InitSessionRequest } from '../../src/schemas/legacy.js';

/** A fake with one sandbox brought to `status`, and a reader of its status. */
async function sandboxIn(status: 'STARTING' | 'RUNNING' | 'PAUSED' | 'ERROR') {
  const fake = await createFake({ auth: 'none', fixture: 'empty' });
  const { id } = await fake.service.startSandbox(null);
  if (status !== 'STARTING') fake.clock.advance(REALISTIC_TIMINGS.sandboxStartMs);
  if (status === 'PAUSED') await fake.service.pauseSandbox(id);
  if (status === 'ERROR') await fake.service.failSandbox(id);
  const read = async () => (await fake.service.getSandboxes([id]))[0]?.status;
  return { fake, id, read };
}

describe('sandbox transitions', () => {
  it('pausing a STARTING or RUNNING sandbox pauses it, and pausing it again changes nothing', async () => {
    for (const from of ['STARTING', 'RUNNING'] as const) {
      const { fake, id, read } = await sandboxIn(from);
      await fake.service.pauseSandbox(id);
      expect(await read()).toBe('PAUSED');
      await fake.service.pauseSandbox(id);
      expect(await read()).toBe('PAUSED');
    }
  });

  it('resuming a PAUSED or ERROR sandbox starts it again: STARTING, then RUNNING after the start-up time', async () => {
    for (const from of ['PAUSED', 'ERROR'] as const) {
      const { fake, id, read } = await sandboxIn(from);
      await fake.service.resumeSandbox(id);
      expect(await read()).toBe('STARTING');
      fake.clock.advance(REALISTIC_TIMINGS.sandboxStartMs);
      expect(await read()).toBe('RUNNING');
    }
  });

  it('resuming a RUNNING sandbox leaves it RUNNING', async () => {
    const { fake, id, read } = await sandboxIn('RUNNING');
    await fake.service.resumeSandbox(id);
    expect(await read()).toBe('RUNNING');
  });

  it('failing a sandbox in any state puts it in ERROR', async () => {
    for (const from of ['STARTING', 'RUNNING', 'PAUSED', 'ERROR'] as const) {
      const { fake, id, read } = await sandboxIn(from);
      await fake.service.failSandbox(id);
      expect(await read()).toBe('ERROR');
    }
  });
});

describe('conversation status', () => {
  it('is STARTING while its sandbox starts, RUNNING once it runs, STOPPED when it is paused, failed or gone', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty' });
    const created = await fake.service.createConversation(InitSessionRequest.parse({}));
    const status = async () => (await fake.service.getConversation(created.conversation_id))!.status;
    expect(created.conversation_status).toBe('STARTING');
    fake.clock.advance(REALISTIC_TIMINGS.sandboxStartMs);
    expect(await status()).toBe('RUNNING');
    const sandboxId = (await fake.service.searchSandboxes({ offset: 0, limit: 1 })).items[0]!.id;
    await fake.service.pauseSandbox(sandboxId);
    expect(await status()).toBe('STOPPED');
    await fake.service.failSandbox(sandboxId);
    expect(await status()).toBe('STOPPED');
    await fake.service.deleteSandbox(sandboxId);
    expect(await status()).toBe('STOPPED');
  });
});

describe('settleSandboxStatus', () => {
  it('moves STARTING to RUNNING exactly at the start-up time, dated then', () => {
    const t = REALISTIC_TIMINGS;
    expect(settleSandboxStatus('STARTING', 1000, 1000 + t.sandboxStartMs - 1, t)).toEqual({ status: 'STARTING', sinceMs: 1000 });
    expect(settleSandboxStatus('STARTING', 1000, 1000 + t.sandboxStartMs + 500, t)).toEqual({
      status: 'RUNNING',
      sinceMs: 1000 + t.sandboxStartMs,
    });
    expect(settleSandboxStatus('PAUSED', 0, 1e9, t)).toEqual({ status: 'PAUSED', sinceMs: 0 });
  });
});

describe('nextTaskStep', () => {
  const t = REALISTIC_TIMINGS;
  const running = { status: 'RUNNING' as const, sinceMs: 5000 };
  it('waits for the sandbox to run, then goes on one step at a time, PREPARING_REPOSITORY always, SETTING_UP_SKILLS before STARTING_CONVERSATION', () => {
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 0, { sandboxId: 's', sandbox: { status: 'STARTING', sinceMs: 0 } }, t)).toBeNull();
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 0, { sandboxId: 's', sandbox: running }, t)).toEqual({
      status: 'PREPARING_REPOSITORY',
      atMs: 5000,
    });
    expect(nextTaskStep('SETTING_UP_GIT_HOOKS', 10, { sandboxId: 's', sandbox: running }, t)).toEqual({
      status: 'SETTING_UP_SKILLS',
      atMs: 10 + t.startTaskStepMs,
    });
    expect(nextTaskStep('STARTING_CONVERSATION', 10, { sandboxId: 's', sandbox: running }, t)).toEqual({
      status: 'READY',
      atMs: 10 + t.startTaskStepMs,
    });
    expect(nextTaskStep('READY', 0, { sandboxId: 's', sandbox: running }, t)).toBeNull();
  });

  it("ends in ERROR with the real service's words when the sandbox is gone or failed (live_status_app_conversation_service.py, _wait_for_sandbox_start)", () => {
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 7, { sandboxId: 'oh-x', sandbox: null }, t)).toEqual({
      status: 'ERROR',
      atMs: 7,
      detail: 'Sandbox not found: oh-x',
    });
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 7, { sandboxId: 'oh-x', sandbox: { status: 'ERROR', sinceMs: 9 } }, t)).toEqual({
      status: 'ERROR',
      atMs: 9,
      detail: 'Sandbox status: SandboxStatus.ERROR',
    });
  });
});
