import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_STATUS_OF_SANDBOX, REALISTIC_TIMINGS, SANDBOX_TRANSITIONS, nextTaskStep, settleSandboxStatus,
} from '../../src/domain/lifecycle.js';

describe('SANDBOX_TRANSITIONS', () => {
  it('is the documented table', () => {
    expect(SANDBOX_TRANSITIONS).toEqual({
      pause: { STARTING: 'PAUSED', RUNNING: 'PAUSED', PAUSED: 'PAUSED' },
      resume: { PAUSED: 'STARTING', STARTING: 'STARTING', RUNNING: 'RUNNING', ERROR: 'STARTING' },
      fail: { STARTING: 'ERROR', RUNNING: 'ERROR', PAUSED: 'ERROR', ERROR: 'ERROR' },
    });
  });
});

describe('CONVERSATION_STATUS_OF_SANDBOX', () => {
  it('derives STARTING, RUNNING, and STOPPED for every other sandbox status', () => {
    expect(CONVERSATION_STATUS_OF_SANDBOX).toEqual({ STARTING: 'STARTING', RUNNING: 'RUNNING', PAUSED: 'STOPPED', ERROR: 'STOPPED', MISSING: 'STOPPED' });
  });
});

describe('settleSandboxStatus', () => {
  it('moves STARTING to RUNNING exactly at the start-up time, dated then', () => {
    const t = REALISTIC_TIMINGS;
    expect(settleSandboxStatus('STARTING', 1000, 1000 + t.sandboxStartMs - 1, t)).toEqual({ status: 'STARTING', sinceMs: 1000 });
    expect(settleSandboxStatus('STARTING', 1000, 1000 + t.sandboxStartMs + 500, t)).toEqual({ status: 'RUNNING', sinceMs: 1000 + t.sandboxStartMs });
    expect(settleSandboxStatus('PAUSED', 0, 1e9, t)).toEqual({ status: 'PAUSED', sinceMs: 0 });
  });
});

describe('nextTaskStep', () => {
  const t = REALISTIC_TIMINGS;
  it('waits for the sandbox to run, then goes on one step at a time', () => {
    const running = { status: 'RUNNING' as const, sinceMs: 5000 };
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 0, { hasRepository: true, sandbox: { status: 'STARTING', sinceMs: 0 } }, t)).toBeNull();
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 0, { hasRepository: true, sandbox: running }, t)).toEqual({ status: 'PREPARING_REPOSITORY', atMs: 5000 });
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 0, { hasRepository: false, sandbox: running }, t)).toEqual({ status: 'RUNNING_SETUP_SCRIPT', atMs: 5000 });
    expect(nextTaskStep('STARTING_CONVERSATION', 10, { hasRepository: false, sandbox: running }, t)).toEqual({ status: 'READY', atMs: 10 + t.startTaskStepMs });
    expect(nextTaskStep('READY', 0, { hasRepository: false, sandbox: running }, t)).toBeNull();
  });

  it('ends in ERROR when the sandbox is gone or failed', () => {
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 7, { hasRepository: false, sandbox: null }, t)).toMatchObject({ status: 'ERROR', atMs: 7 });
    expect(nextTaskStep('WAITING_FOR_SANDBOX', 7, { hasRepository: false, sandbox: { status: 'ERROR', sinceMs: 9 } }, t)).toEqual({ status: 'ERROR', atMs: 9, detail: 'Sandbox entered error state' });
  });
});
