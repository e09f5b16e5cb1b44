import { describe, expect, it } from 'vitest';
import { createFakeCore } from '../../src/index.js';
import { InitSessionRequest } from '../../src/schemas/legacy.js';

// src/service-facade.ts: fake.service loads its operations (src/domain/service.ts) with its first
// call; calls still run in the order they were made.
describe('fake.service', () => {
  it('runs calls in the order they were made, when the first one waits for its area to load', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty', timings: 'instant' });
    // Not awaited: the search is made while the legacy conversations' module is still loading.
    const created = fake.service.createConversation(InitSessionRequest.parse({}));
    const searched = fake.service.searchSandboxes({ offset: 0, limit: 10 });
    const [conversation, page] = await Promise.all([created, searched]);
    expect(conversation.status).toBe('ok');
    expect(page.items).toHaveLength(1);
    expect((await fake.service.getConversation(conversation.conversation_id))?.conversation_id).toBe(conversation.conversation_id);
  });

  it('keeps that order across areas and repeated calls, each call answered with its own result', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty', timings: 'instant' });
    const calls = [
      fake.service.createConversation(InitSessionRequest.parse({})),
      fake.service.searchSandboxes({ offset: 0, limit: 10 }),
      fake.service.createConversation(InitSessionRequest.parse({})),
      fake.service.listConversations({ limit: 10 }),
      fake.service.searchSandboxes({ offset: 0, limit: 10 }),
    ] as const;
    const [first, sandboxesAfterOne, second, conversations, sandboxesAfterTwo] = await Promise.all(calls);
    expect(first.conversation_id).not.toBe(second.conversation_id);
    expect(sandboxesAfterOne.items).toHaveLength(1);
    expect(conversations.results.map((c) => c.conversation_id).sort()).toEqual([first.conversation_id, second.conversation_id].sort());
    expect(sandboxesAfterTwo.items).toHaveLength(2);
  });
});
