/**
 * The official TypeScript client (`@openhands/typescript-client` 1.39.0) against the fake's agent
 * host: every one of its conversation methods (`ConversationClient`, `ConversationManager` and its
 * ACP namespace, `RemoteConversation` and `RemoteState`) works, on the standalone server and in
 * process (msw). Run with `--auth none`, as Agent Canvas's local backend runs: no key is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { ConversationClient, ProfilesClient } from '@openhands/typescript-client/clients';
import { ConversationManager, RemoteConversation, RemoteWorkspace } from '@openhands/typescript-client';
import { createFake } from '../../src/index.js';
import { serve } from './support.js';

/** What the client sends as its agent (the fake never answers the key back), with a condenser that condenses when asked. */
const AGENT = {
  kind: 'Agent',
  llm: { model: 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929', api_key: 'sk-client-key', usage_id: 'agent' },
  tools: [],
  condenser: { kind: 'LLMSummarizingCondenser', llm: { model: 'openai/gpt-5-mini', usage_id: 'condenser' } },
};
const message = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });

/** Calls every conversation method of the client against the agent host at `host`. */
async function exercise(host: string): Promise<void> {
  const client = new ConversationClient({ host });
  const manager = new ConversationManager({ host });

  // ConversationClient: create, read, search, count, batch, update.
  const created = (await client.createConversation({
    agent: AGENT,
    workspace: { working_dir: '/workspace/project' },
  } as never)) as unknown as { id: string; execution_status: string };
  expect(created.execution_status).toBe('idle');
  expect(JSON.stringify(created)).not.toContain('sk-client-key');
  const id = created.id;
  expect((await client.getConversation(id)).id).toBe(id);
  expect((await client.searchConversations({ limit: 10 })).items.map((c) => c.id)).toContain(id);
  expect(await client.countConversations({})).toBeGreaterThanOrEqual(1);
  expect((await client.getConversations([id])).map((c) => c?.id)).toEqual([id]);
  expect(await client.updateConversation(id, { title: 'From the TypeScript client' })).toEqual({ success: true });
  expect((await client.getConversation(id)).title).toBe('From the TypeScript client');

  // Messages and events; run on a message that waits.
  await client.sendEvent(id, message('Write a plan') as never, { run: false });
  expect((await client.getConversation(id)).execution_status).toBe('idle');
  expect(await client.runConversation(id)).toEqual({ success: true });
  expect((await client.getConversation(id)).execution_status).toBe('finished');
  const page = await client.searchEvents(id, { limit: 100 });
  expect(page.items.length).toBeGreaterThan(5);
  expect(await client.getEventCount(id)).toBe(page.items.length);
  expect((await client.getEvent(id, page.items[0]!.id)).id).toBe(page.items[0]!.id);
  expect((await client.getEvents(id, [page.items[0]!.id, 'no-such-event'])).map((e) => e?.id ?? null)).toEqual([page.items[0]!.id, null]);
  expect((await client.getAgentFinalResponse(id)).response).toMatch(/^Done: I changed /);
  expect((await client.askAgent(id, 'What changed?')).response).toContain('What changed?');

  // Pause, interrupt, confirmation, policy, analyzer, secrets, condense.
  expect(await client.pauseConversation(id)).toEqual({ success: true });
  expect(await client.interruptConversation(id)).toEqual({ success: true });
  expect(await client.setConfirmationPolicy(id, { kind: 'AlwaysConfirm' } as never)).toEqual({ success: true });
  expect(await client.respondToConfirmation(id, { accept: true, reason: '' } as never)).toEqual({ success: true });
  expect(await client.setSecurityAnalyzer(id, { kind: 'LLMSecurityAnalyzer' } as never)).toEqual({ success: true });
  expect(await client.updateSecrets(id, { secrets: { API_TOKEN: 'tok-secret' } } as never)).toEqual({ success: true });
  expect(JSON.stringify(await client.getConversation(id))).not.toContain('tok-secret');
  expect(await client.condenseConversation(id)).toEqual({ success: true });

  // Goal loop.
  expect(await client.setConfirmationPolicy(id, { kind: 'NeverConfirm' } as never)).toEqual({ success: true });
  expect(await client.startGoal(id, { objective: 'All tests pass' } as never)).toEqual({ success: true });
  expect(await client.stopGoal(id)).toEqual({ success: true });
  // With instant timings the goal's run is over and judged complete: nothing to resume (event_service.py, resume_goal_loop).
  await expect(client.resumeGoal(id)).rejects.toMatchObject({ status: 400, response: { detail: 'no_resumable_goal' } });

  // Fork and navigate; switch LLM, profile, ACP model.
  const fork = (await client.forkConversation(id, { title: 'Plan B' } as never)) as unknown as {
    id: string;
    title: string;
    execution_status: string;
  };
  expect(fork).toMatchObject({ title: 'Plan B', execution_status: 'idle' });
  expect(
    ((await client.navigateConversation(fork.id, { event_id: null } as never)) as unknown as { leaf_event_id: null }).leaf_event_id,
  ).toBeNull();
  await client.switchLLM(id, { model: 'openai/gpt-5' } as never);
  expect((await client.getConversation(id)).agent.llm.model).toBe('openai/gpt-5');
  // A profile the user saved (switch_profile loads it from the host's profile store).
  for (const [name, model] of [
    ['fast', 'openai/gpt-5-mini-2025-08-07'],
    ['reasoning', 'openai/gpt-5-2025-08-07'],
  ] as const)
    await new ProfilesClient({ host }).saveProfile(name, { llm: { model } } as never);
  await client.switchProfile(id, 'fast');
  expect((await client.getConversation(id)).agent.llm.model).toBe('openai/gpt-5-mini-2025-08-07');
  const acp = (await client.createConversation({
    agent: { kind: 'ACPAgent', acp_command: ['claude-code-acp'] },
    workspace: { working_dir: '/workspace/project' },
  } as never)) as unknown as { id: string };
  await client.switchAcpModel(acp.id, 'opus');
  await expect(client.switchAcpModel(id, 'opus')).rejects.toMatchObject({ status: 400 });

  // ConversationManager and its ACP namespace.
  expect((await manager.searchConversations({ limit: 100 })).items.length).toBeGreaterThanOrEqual(3);
  expect(await manager.countConversations()).toBe((await manager.getAllConversations()).length);
  expect((await manager.getConversations([id, fork.id])).map((c) => c?.id)).toEqual([id, fork.id]);
  expect((await manager.getConversation(id)).id).toBe(id);
  expect(await manager.updateConversation(fork.id, { title: 'Renamed' } as never)).toEqual({ success: true });
  await manager.switchProfile(fork.id, 'reasoning');
  expect((await manager.acp.searchConversations({ limit: 100 })).items.length).toBe(await manager.acp.countConversations());
  expect((await manager.acp.getConversations([acp.id]))[0]?.id).toBe(acp.id);
  expect((await manager.acp.getAllConversations()).length).toBeGreaterThanOrEqual(3);
  expect((await manager.acp.getConversation(acp.id)).id).toBe(acp.id);
  const viaAcp = (await manager.acp.createConversation({ kind: 'ACPAgent', acp_command: ['claude-code-acp'] } as never, {
    workingDir: '/workspace/project',
  })) as unknown as { id: string };
  expect((await manager.getConversation(viaAcp.id)).id).toBe(viaAcp.id);
  const loaded = await manager.loadConversation(id, '/workspace/project');
  expect(loaded.id).toBe(id);

  // RemoteConversation (through the manager) and its state.
  const remote = await manager.createConversation(AGENT as never, { workingDir: '/workspace/project', initialMessage: 'Hello there' });
  expect(await remote.state.getExecutionStatus()).toBe('idle');
  await remote.sendMessage('Fix the flaky test');
  await remote.run();
  await remote.state.refresh();
  expect(await remote.state.getExecutionStatus()).toBe('finished');
  expect(await remote.getAgentFinalResponse()).toMatch(/^Done: I changed /);
  expect(await remote.askAgent('Why?')).toContain('Why?');
  await remote.setTitle('Remote');
  await remote.setConfirmationPolicy({ kind: 'NeverConfirm' } as never);
  await remote.sendConfirmationResponse(true);
  // A profile saved above (a fresh host has none: profiles_router.py).
  await remote.switchProfile('reasoning');
  await remote.switchLlm({ model: 'anthropic/claude-opus-4' } as never);
  await expect(remote.switchAcpModel('opus')).rejects.toMatchObject({ status: 400 });
  await remote.startGoal('Ship it', 3);
  await remote.stopGoal();
  await expect(remote.resumeGoal()).rejects.toMatchObject({ status: 400 });
  await remote.condense();
  await remote.setSecurityAnalyzer({ kind: 'LLMSecurityAnalyzer' } as never);
  await remote.updateSecrets({ TOKEN: 'remote-secret', LAZY: () => 'lazy-secret' });
  expect((await remote.conversationStats()) as unknown).toBeTypeOf('object');
  expect(await remote.getHookConfig()).toBeNull();
  const first = (await client.searchEvents(remote.id, { limit: 1 })).items[0]!.id;
  await remote.navigateTo(first);
  const forked = await remote.fork({ title: 'Remote fork' } as never);
  expect((await client.getConversation(forked.id)).title).toBe('Remote fork');
  const zip = (await remote.downloadTrajectory()) as Blob;
  expect([...new Uint8Array(await zip.arrayBuffer()).slice(0, 2)]).toEqual([0x50, 0x4b]);
  await remote.pause();
  expect((await client.getConversation(remote.id)).execution_status).toBe('finished');
  const standalone = new RemoteConversation(AGENT as never, new RemoteWorkspace({ host, workingDir: '/workspace/project' }));
  await standalone.start({ initialMessage: 'Started by RemoteConversation.start' });
  expect((await client.getConversation(standalone.id)).execution_status).toBe('idle');
  await standalone.pause();
  expect((await client.getConversation(standalone.id)).execution_status).toBe('paused');

  // Delete, through both.
  await client.deleteConversation(fork.id);
  await manager.deleteConversation(forked.id);
  await expect(client.getConversation(fork.id)).rejects.toMatchObject({ status: 404 });
  await remote.close();
  await loaded.close();
  await standalone.close();
  client.close();
}

describe('@openhands/typescript-client conversation methods', () => {
  it('each works against the standalone agent host (fakehands serve --auth none)', async () => {
    const cli = await serve(['--timings', 'instant']);
    await exercise(cli.agentUrl);
  });

  describe('in process (msw)', () => {
    const AGENT_URL = 'http://localhost:3001';
    let server: ReturnType<typeof setupServer>;
    beforeAll(async () => {
      const fake = await createFake({
        baseUrl: 'http://localhost:3000',
        agentUrl: AGENT_URL,
        auth: 'none',
        fixture: 'empty',
        timings: 'instant',
        checkResponses: true,
      });
      server = setupServer(...fake.handlers);
      server.listen({ onUnhandledRequest: 'error' });
    });
    afterAll(() => server.close());

    it('each works against the agent host msw intercepts', async () => {
      await exercise(AGENT_URL);
    });
  });
});
