import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/index.js';
import { Table } from '../../src/domain/store/table.js';
import { AppConversationStartRequest } from '../../src/schemas/app-conversation.js';

// src/domain/store/runner.ts, `#step`: a step that throws is rolled back; the scheduler's indexes
// (pending start tasks, active agent runs) are found again among those kept before the step
// (`DomainState.saveIndexes` / `restoreIndexes`), not by walking every record: a refused create on a
// store of 170,000 conversations walked them all, ~20 ms a request, and the fake answered ~45 a second.
describe('a refused operation', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Pauses a sandbox that does not exist (refused: not found), counting the whole-table reads it makes. */
  async function refusedWithWalks(fake: FakeCore): Promise<{ refusal: unknown; walks: number }> {
    const walks = vi.spyOn(Table.prototype, 'all');
    const refusal = await fake.service.pauseSandbox('no-such-sandbox').then(
      () => null,
      (error: unknown) => error,
    );
    const count = walks.mock.calls.length;
    walks.mockRestore();
    return { refusal, walks: count };
  }

  it('reads no whole table to roll back, and the start task pending before it still steps on to READY', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty', clock: 'manual' });
    const task = await fake.service.startAppConversation(AppConversationStartRequest.parse({}));
    expect(task.status).not.toBe('READY');
    const { refusal, walks } = await refusedWithWalks(fake);
    expect(refusal).toMatchObject({ reason: 'not_found' });
    expect(walks).toBe(0);

    fake.clock.advance(60_000);
    const [settled] = await fake.service.getStartTasks([task.id]);
    expect(settled?.status).toBe('READY');
  });

  it('reads no whole table to roll back, and the agent run under way before it still finishes', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty', clock: 'manual' });
    const task = await fake.service.startAppConversation(
      AppConversationStartRequest.parse({ initial_message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } }),
    );
    let conversationId: string | null = null;
    for (let i = 0; i < 600 && conversationId === null; i++) {
      fake.clock.advance(100);
      conversationId = (await fake.service.getStartTasks([task.id]))[0]?.app_conversation_id ?? null;
    }
    expect(conversationId).toEqual(expect.any(String));
    const [running] = await fake.service.getAppConversations([conversationId!]);
    expect(running?.execution_status).toBe('running');

    const { refusal, walks } = await refusedWithWalks(fake);
    expect(refusal).toMatchObject({ reason: 'not_found' });
    expect(walks).toBe(0);

    fake.clock.advance(600_000);
    const [finished] = await fake.service.getAppConversations([conversationId!]);
    expect(finished?.execution_status).toBe('finished');
  });

  it('at the store limit, a start task that came due waits for room: reads and deletes still answer, and once deletes make room the task is READY', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty', clock: 'manual', maxRecords: 12 });
    const task = await fake.service.startAppConversation(AppConversationStartRequest.parse({}));
    const sandboxes: string[] = [];
    let refusal: unknown = null;
    while (refusal === null && sandboxes.length < 20) {
      await fake.service.startSandbox(null).then(
        (sandbox) => sandboxes.push(sandbox.id),
        (error: unknown) => {
          refusal = error;
        },
      );
    }
    expect(refusal).toMatchObject({ reason: 'storage_full' });
    // Its conversation is a record more than the store has room for.
    fake.clock.advance(60_000);
    const page = await fake.service.searchSandboxes({ offset: 0, limit: 100 });
    expect(page.items.length).toBe(sandboxes.length + 1);
    const [waiting] = await fake.service.getStartTasks([task.id]);
    expect(waiting?.status).not.toBe('READY');
    expect(waiting?.status).not.toBe('ERROR');

    // Room for its sandbox, its conversation and the conversation's first events.
    for (const id of sandboxes.slice(0, 6)) await fake.service.deleteSandbox(id);
    const [ready] = await fake.service.getStartTasks([task.id]);
    expect(ready?.status).toBe('READY');
    const [conversation] = await fake.service.getAppConversations([ready!.app_conversation_id!]);
    expect(conversation?.id).toBe(ready!.app_conversation_id);
  });
});
