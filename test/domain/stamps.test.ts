import { describe, expect, it } from 'vitest';
import { createFakeCore } from '../../src/index.js';
import { AppConversationStartRequest } from '../../src/schemas/app-conversation.js';

// src/domain/store/state.ts, `now` and `stamp`: stamps go up by a microsecond at least, so hundreds of
// records made in one millisecond are stamped into the next ones; the time-driven steps read the
// later of the clock and the last stamp, so a record stamped ahead of a standing clock is not left
// waiting for the clock to catch up.
describe('many start tasks in one millisecond (timings: instant)', () => {
  it('are all READY at the next look, with the clock standing still', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty', clock: 'manual', timings: 'instant' });
    const ids: string[] = [];
    for (let i = 0; i < 400; i++) ids.push((await fake.service.startAppConversation(AppConversationStartRequest.parse({}))).id);
    const tasks = await fake.service.getStartTasks(ids);
    // The stamps ran past the clock's millisecond: the case this covers.
    expect(tasks.at(-1)!.created_at > '2025-11-03T09:00:00.001').toBe(true);
    expect(tasks.filter((task) => task?.status !== 'READY').map((task) => task?.status)).toEqual([]);
    const page = await fake.service.searchAppConversations({}, { offset: 0, limit: 100 });
    expect(page.items.length).toBe(100);
  });
});
