/**
 * The conversation calls of the differential suite's TypeScript client run
 * (`typescript-client.real.test.ts`): every method of `ConversationClient`, `ConversationManager`
 * and its ACP namespace, `RemoteConversation`, its `RemoteState` and `RemoteEventsList`, and
 * `RemoteWorkspace`, in one fixed order with the same arguments on each side. The agents' runs are
 * the scripts both sides play (the real agent through the scripted LLM); a run is waited for
 * before the next call, so each side answers from the same state.
 */
import { ConversationManager, RemoteConversation, RemoteWorkspace } from '@openhands/typescript-client';
import { ConversationClient } from '@openhands/typescript-client/clients';
import { MISSING_ID, profileLlm, type Recorder, type Side } from './typescript-client-calls.js';

/** The scripts both agents play: the real one through the scripted LLM, the fake's as its own. */
export const CLIENT_SCRIPTS = [
  // The goal loop's judge (the SDK's goal/judge.py, judge_goal: its prompt quotes the objective in <objective>): the goal is done, as the fake's judge says after one round.
  { match: '<objective>', steps: [{ message: '{"score": 1.0, "complete": true, "missing": ""}' }] },
  { match: 'say hello', steps: [{ terminal: { command: 'echo hello', output: 'hello' } }, { finish: 'Said hello.' }] },
  { match: 'just answer', steps: [{ message: 'Here is the answer.' }] },
];

/** The agent each conversation runs: the scripted LLM, the SDK's default tools. */
const agentOf = (side: Side) => ({
  kind: 'Agent',
  llm: profileLlm(side, 'openai/fakehands'),
  tools: [{ name: 'terminal' }, { name: 'file_editor' }, { name: 'task_tracker' }],
});

/** An ACP agent (its command is never started: no message is sent to it). */
const ACP_AGENT = { kind: 'ACPAgent', acp_command: ['fakehands-no-such-acp-server'] };

const message = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until a conversation is not running (a run, a goal loop); gives up after 90 s. */
async function settled(c: ConversationClient, id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  await sleep(300);
  while (Date.now() < deadline) {
    const info = (await c.getConversation(id)) as unknown as { execution_status: string };
    if (info.execution_status !== 'running') return;
    await sleep(250);
  }
}

/** Waits until a conversation's goal loop has ended (its last `goal` status inactive) and its run with it; gives up after 90 s. */
async function goalSettled(c: ConversationClient, id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const page = await c.searchEvents(id, { kind: 'ConversationStateUpdateEvent', sort_order: 'TIMESTAMP_DESC', limit: 100 });
    const goal = page.items.find((e) => (e as { key?: string }).key === 'goal') as { value?: { active?: boolean } } | undefined;
    if (goal?.value?.active === false) return settled(c, id);
    await sleep(250);
  }
}

/** Calls every conversation method of the client on `side`. */
export async function conversationCalls(side: Side, record: Recorder): Promise<void> {
  const options = { host: side.host, apiKey: side.key };
  const c = new ConversationClient(options);
  const dir = side.workDir;
  // ConversationClient (conversation_router.py, event_router.py).
  const created = await record('conversations.createConversation', () =>
    c.createConversation({ agent: agentOf(side), workspace: { working_dir: dir } }),
  );
  const id = (created as { id: string }).id;
  await record('conversations.getConversation', () => c.getConversation(id));
  await record('conversations.searchConversations', () => c.searchConversations({ limit: 100 }));
  await record('conversations.countConversations', () => c.countConversations());
  await record('conversations.getConversations', () => c.getConversations([id, MISSING_ID]));
  await record('conversations.updateConversation', () => c.updateConversation(id, { title: 'From the client' }));
  await record('conversations.sendEvent', () => c.sendEvent(id, message('say hello'), { run: false }));
  await record('conversations.runConversation', () => c.runConversation(id));
  await settled(c, id);
  const page = await record('conversations.searchEvents', () => c.searchEvents(id, { limit: 100 }));
  const first = page?.items[0]?.id ?? MISSING_ID;
  await record('conversations.getEventCount', () => c.getEventCount(id));
  await record('conversations.getEvent', () => c.getEvent(id, first));
  await record('conversations.getEvents', () => c.getEvents(id, [first, MISSING_ID]));
  await record('conversations.getAgentFinalResponse', () => c.getAgentFinalResponse(id));
  await record('conversations.askAgent', () => c.askAgent(id, 'just answer'));
  await record('conversations.setConfirmationPolicy', () => c.setConfirmationPolicy(id, { kind: 'NeverConfirm' } as never));
  await record('conversations.respondToConfirmation', () => c.respondToConfirmation(id, { accept: true, reason: '' } as never));
  await record('conversations.setSecurityAnalyzer', () => c.setSecurityAnalyzer(id, null));
  await record('conversations.updateSecrets', () => c.updateSecrets(id, { secrets: { API_TOKEN: 'tok-secret' } } as never));
  await record('conversations.condenseConversation', () => c.condenseConversation(id));
  await record('conversations.startGoal', () => c.startGoal(id, { objective: 'say hello', max_iterations: 2 } as never));
  await goalSettled(c, id);
  await record('conversations.stopGoal', () => c.stopGoal(id));
  await record('conversations.resumeGoal', () => c.resumeGoal(id));
  await settled(c, id);
  await record('conversations.pauseConversation', () => c.pauseConversation(id));
  await record('conversations.interruptConversation', () => c.interruptConversation(id));
  const fork = await record('conversations.forkConversation', () => c.forkConversation(id, { title: 'Plan B' } as never));
  const forkId = (fork as { id?: string } | undefined)?.id ?? MISSING_ID;
  await record('conversations.navigateConversation', () => c.navigateConversation(forkId, { event_id: null } as never));
  await record('conversations.switchLLM', () => c.switchLLM(id, profileLlm(side, 'openai/other') as never));
  await record('conversations.switchProfile', () => c.switchProfile(id, 'smart'));
  await record('conversations.switchAcpModel', () => c.switchAcpModel(id, 'opus'));
  await record('conversations.deleteConversation', () => c.deleteConversation(forkId));

  // ConversationManager and its ACP namespace.
  const m = new ConversationManager(options);
  await record('manager.searchConversations', () => m.searchConversations({ limit: 100 }));
  await record('manager.countConversations', () => m.countConversations());
  await record('manager.getConversations', () => m.getConversations([id, MISSING_ID]));
  await record('manager.getAllConversations', () => m.getAllConversations());
  await record('manager.getConversation', () => m.getConversation(id));
  const made = await record('manager.createConversation', () => m.createConversation(agentOf(side) as never, { workingDir: dir }));
  const loaded = await record('manager.loadConversation', () => m.loadConversation(id, dir));
  const acp = await record('manager.createACPConversation', () => m.createACPConversation(ACP_AGENT as never, { workingDir: dir }));
  const acpId = (acp as { id?: string } | undefined)?.id ?? MISSING_ID;
  await record('manager.searchACPConversations', () => m.searchACPConversations({ limit: 100 }));
  await record('manager.countACPConversations', () => m.countACPConversations());
  await record('manager.getACPConversations', () => m.getACPConversations([acpId, MISSING_ID]));
  await record('manager.getAllACPConversations', () => m.getAllACPConversations());
  await record('manager.getACPConversation', () => m.getACPConversation(acpId));
  await record('manager.acp.createConversation', () => m.acp.createConversation(ACP_AGENT as never, { workingDir: dir }));
  await record('manager.acp.searchConversations', () => m.acp.searchConversations({ limit: 100 }));
  await record('manager.acp.countConversations', () => m.acp.countConversations());
  await record('manager.acp.getConversations', () => m.acp.getConversations([acpId]));
  await record('manager.acp.getAllConversations', () => m.acp.getAllConversations());
  await record('manager.acp.getConversation', () => m.acp.getConversation(acpId));
  await record('manager.switchProfile', () => m.switchProfile(id, 'smart'));
  await record('manager.updateConversation', () => m.updateConversation(id, { title: 'Renamed' }));
  await record('manager.deleteConversation', () => m.deleteConversation(acpId));
  await made?.close();
  await loaded?.close();
  m.close();

  // RemoteConversation, its state and events, started on its own workspace.
  const workspace = new RemoteWorkspace({ host: side.host, workingDir: dir, apiKey: side.key });
  const r = new RemoteConversation(agentOf(side) as never, workspace);
  await record('remote.start', () => r.start());
  await record('remote.startWebSocketClient', () => r.startWebSocketClient());
  await record('remote.loadHooks', () => r.loadHooks(dir));
  await record('remote.getHookConfig', () => r.getHookConfig());
  await record('remote.sendMessage', () => r.sendMessage('say hello'));
  await record('remote.run', () => r.run());
  await settled(c, r.id);
  await record('remote.conversationStats', () => r.conversationStats());
  await record('remote.getAgentFinalResponse', () => r.getAgentFinalResponse());
  await record('remote.askAgent', () => r.askAgent('just answer'));
  await record('remote.setConfirmationPolicy', () => r.setConfirmationPolicy({ kind: 'NeverConfirm' } as never));
  await record('remote.sendConfirmationResponse', () => r.sendConfirmationResponse(true));
  await record('remote.setTitle', () => r.setTitle('Remote'));
  await record('remote.switchProfile', () => r.switchProfile('smart'));
  await record('remote.switchLlm', () => r.switchLlm(profileLlm(side, 'openai/other') as never));
  await record('remote.switchAcpModel', () => r.switchAcpModel('opus'));
  await record('remote.startGoal', () => r.startGoal('say hello', 2));
  await goalSettled(c, r.id);
  await record('remote.stopGoal', () => r.stopGoal());
  await record('remote.resumeGoal', () => r.resumeGoal());
  await settled(c, r.id);
  await record('remote.condense', () => r.condense());
  await record('remote.setSecurityAnalyzer', () => r.setSecurityAnalyzer(null));
  await record('remote.updateSecrets', () => r.updateSecrets({ TOKEN: 'remote-secret', LAZY: () => 'lazy-secret' }));
  const s = r.state;
  await record('state.refresh', () => s.refresh());
  await record('state.getExecutionStatus', () => s.getExecutionStatus());
  await record('state.getAgentStatus', () => s.getAgentStatus());
  await record('state.getConfirmationPolicy', () => s.getConfirmationPolicy());
  await record('state.getActivatedKnowledgeSkills', () => s.getActivatedKnowledgeSkills());
  await record('state.getAgent', () => s.getAgent());
  await record('state.getWorkspace', () => s.getWorkspace());
  await record('state.getPersistenceDir', () => s.getPersistenceDir());
  await record('state.modelDump', () => s.modelDump());
  await record('state.modelDumpJson', () => s.modelDumpJson().then((text) => JSON.parse(text) as unknown));
  const events = s.events;
  const found = await record('events.search', () => events.search({ limit: 5 }));
  const eventId = found?.items[0]?.id ?? MISSING_ID;
  await record('events.count', () => events.count());
  await record('events.getEventById', () => events.getEventById(eventId));
  await record('events.getEventsById', () => events.getEventsById([eventId, MISSING_ID]));
  await record('events.getEvents', () => events.getEvents());
  await record('events.asyncIterator', async () => {
    const kinds = new Set<string>();
    for await (const event of events) kinds.add(event.kind);
    return [...kinds].sort();
  });
  await record('events.length', async () => (await events.length()) > 0);
  await record('events.getEvent', () => events.getEvent(0));
  await record('remote.navigateTo', () => r.navigateTo(eventId));
  const forked = await record('remote.fork', () => r.fork({ title: 'Remote fork' } as never));
  await record('remote.downloadTrajectory', () => r.downloadTrajectory());
  await record('remote.pause', () => r.pause());
  await record('state.getExecutionStatus after pause', () => s.refresh().then((info) => info.execution_status));
  await record('remote.stopWebSocketClient', () => r.stopWebSocketClient());
  await record('remote.close', () => r.close());
  await forked?.close();

  // RemoteWorkspace (file_router.py, git_router.py, bash_router.py, auth_router.py).
  const w = new RemoteWorkspace({ host: side.host, workingDir: dir, apiKey: side.key });
  const file = `${dir}/workspace/a.txt`;
  await record('workspace.startWorkspaceSession', () => w.startWorkspaceSession(id));
  await record('workspace.deleteWorkspaceSession', () => w.deleteWorkspaceSession());
  await record('workspace.executeCommand', () => w.executeCommand('echo there', dir));
  await record('workspace.fileUpload', () => w.fileUpload('one\n', file));
  await record('workspace.uploadText', () => w.uploadText('two\n', `${dir}/workspace/b.txt`));
  await record('workspace.uploadFileObject', () => w.uploadFileObject(new File(['three\n'], 'c.txt'), `${dir}/workspace/c.txt`));
  await record('workspace.fileDownload', () => w.fileDownload(file));
  await record('workspace.downloadAsText', () => w.downloadAsText(file));
  await record('workspace.downloadAsBlob', () => w.downloadAsBlob(file));
  await record('workspace.gitChanges', () => w.gitChanges(dir));
  await record('workspace.gitDiff', () => w.gitDiff(file));
  w.close();
  c.close();
}
