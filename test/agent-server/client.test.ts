/**
 * The typed client of the agent server (`fakehands/client`'s `createAgentClient`) against the
 * standalone fake: REST, and the events socket as an async iterator.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ApiError, createAgentClient, type WebSocketClass } from '../../src/client/index.js';
import { ONE_RUN, describe as name, serve, startConversation } from './support.js';

describe('createAgentClient', () => {
  it('reads the log, sends a message and follows the socket until it stops', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const agent = createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: conversation.session_api_key });
    expect(await agent.countEvents()).toBe(1 + ONE_RUN.length);
    const page = await agent.searchEvents({ limit: 2 });
    expect(page.items.map(name)).toEqual(['SystemPromptEvent', 'MessageEvent:user']);
    expect((await agent.getEvent(page.items[1]!.id)).id).toBe(page.items[1]!.id);
    const events = agent.events(WebSocket as unknown as WebSocketClass);
    const seen: string[] = [];
    for await (const event of events) {
      seen.push(name(event as Record<string, unknown>));
      if (seen.length === 2 + ONE_RUN.length) events.send('More, please');
      if (seen.length === 2 + 2 * ONE_RUN.length) events.stop();
    }
    expect(seen).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN, ...ONE_RUN]);
    expect(events.closed?.code).toBe(1005);
    await agent.sendMessage('And again', { run: false });
    // The message and its last_user_message_id update.
    expect(await agent.countEvents()).toBe(3 + 2 * ONE_RUN.length);
    // Under --auth none (serve()) the agent host takes any key: the local agent server holds the conversation too.
    expect(await createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: 'wrong' }).countEvents()).toBe(
      3 + 2 * ONE_RUN.length,
    );
    const refused = await createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: 'wrong' })
      .getEvent('no-such-event')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(404);
  });

  it('reads the conversation, answers a confirmation, and works the workspace: git, files, VS Code', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const agent = createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: conversation.session_api_key });
    const info = await agent.getConversation();
    expect(info.execution_status).toBe('finished');
    const project = info.workspace.working_dir;
    expect(await agent.gitChanges(project)).toEqual([{ status: 'ADDED', path: 'PLAN.md' }]);
    expect((await agent.gitDiff(`${project}/PLAN.md`)).modified).toMatch(/^# Plan/);
    expect(await agent.uploadFile(`${project}/notes.md`, 'hello')).toEqual({ success: true, file_size: 5 });
    expect(new TextDecoder().decode(await agent.downloadFile(`${project}/notes.md`))).toBe('hello');
    expect(await agent.vscodeUrl()).toMatch(/\?tkn=vsc-[0-9a-f]{8}&folder=workspace$/);
    await agent.setConfirmationPolicy('AlwaysConfirm');
    await agent.sendMessage('Careful now');
    expect((await agent.getConversation()).execution_status).toBe('waiting_for_confirmation');
    expect(await agent.respondToConfirmation(false, 'not that')).toEqual({ success: true });
    expect((await agent.getConversation()).execution_status).toBe('idle');
    const missing = await agent.downloadFile(`${project}/nope`).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
    expect((missing as ApiError).detail).toBe('File not found');
  });
});
