/**
 * The declared differences of the official TypeScript client's calls on the real agent server
 * and on the fake (`test/real/typescript-client.real.test.ts`: facts `agent server › typescript-client
 * <area.method> › outcome | body › <path>`), each with its reason; `declared.ts` lists them with the
 * others (its own types, structurally: this module imports nothing).
 */

/** Why the fake's skills and plugins differ from a fresh real host's. */
const SEEDED_CATALOG =
  "the fake's host has skills and a plugin installed and a marketplace to list (its seeded catalog); the real agent server here starts with none installed and reaches no marketplace (no network: empty lists, a failed sync)";

/** The declared differences of the TypeScript client's calls. */
export const DECLARED_CLIENT_DIFFERENCES: readonly {
  readonly fact: string;
  readonly real?: string;
  readonly fake?: string;
  readonly kind: 'real-bug' | 'deliberate' | 'gap';
  readonly reason: string;
}[] = [
  {
    fact: 'agent server › typescript-client settings.getSecret › outcome',
    real: 'ok',
    fake: 'HTTP 404',
    kind: 'deliberate',
    reason:
      "the real agent server answers a stored secret's value by its name; the fake never returns a secret's value, anywhere, and answers 404",
  },
  {
    fact: 'agent server › typescript-client vscode.*',
    kind: 'deliberate',
    reason:
      'the real agent server here runs with VS Code off (OH_ENABLE_VSCODE=false: its URL 503, its status disabled with a message); the fake serves its editor page',
  },
  {
    fact: 'agent server › typescript-client llm.*OpenAISubscriptionDeviceLogin › outcome',
    kind: 'deliberate',
    reason:
      "the real device login asks auth.openai.com for a code, out of reach here (500 'Name or service not known'), so its poll finds none (404); the fake hands out a code of its own",
  },
  {
    fact: 'agent server › typescript-client desktop.getUrl › outcome',
    real: 'HTTP 404',
    fake: 'HTTP 503',
    kind: 'deliberate',
    reason:
      "1.58.2 has no desktop router (404); the fake keeps answering /api/desktop/url as the Aug 2026 source did (503: the desktop disabled), for the TypeScript client 1.39's DesktopClient",
  },
  ...['skills.getSkills', 'skills.listInstalledSkills', 'skills.getMarketplace', 'skills.syncSkills', 'plugins.*'].map((call) => ({
    fact: `agent server › typescript-client ${call} › body › *`,
    kind: 'deliberate' as const,
    reason: SEEDED_CATALOG,
  })),
  {
    fact: 'agent server › typescript-client files.getHome › body › favorites*',
    kind: 'deliberate',
    reason: "the real agent server's home here is an empty folder; the fake's home has its projects and workspace folders",
  },
  {
    fact: 'agent server › typescript-client subAgents.getSubAgents › body › agents[].*',
    kind: 'deliberate',
    reason:
      "the real built-in sub-agents are read from files of its package (level 'builtin', source the file's path on that machine); the fake's built-in one has no file (level and source null)",
  },
  {
    fact: 'agent server › typescript-client llm.getVerifiedModels › body › *',
    kind: 'gap',
    reason: "the fake's verified models are those of its own catalog (four providers); 1.58.2 lists more providers and newer models",
  },
  {
    fact: 'agent server › typescript-client workspace.gitChanges › body › *',
    kind: 'gap',
    reason:
      "1.58.2 lists every file of a folder outside git as ADDED (git_changes.py); the fake answers changes for a conversation's workspace only, none for a host folder",
  },
  {
    fact: 'agent server › typescript-client agentProfiles.* › body › *',
    kind: 'gap',
    reason:
      "the fake materializes a summary of an agent profile (its LLM profile, whether a key is set, the skills it resolves) and names no active profile before one is activated; 1.58.2 resolves a launch in full (resolved_settings: the whole agent settings, the unusable tools), seeds an active default profile from the settings' LLM and names a profile by id when activating it",
  },
  ...['settings.*', 'profiles.*'].map((call) => ({
    fact: `agent server › typescript-client ${call} › body › *`,
    kind: 'gap' as const,
    reason:
      "the fake's host-wide settings and LLM profiles are the Aug 2026 model (the agent settings' every field, each profile's whole LLM, the schemas' descriptions come with 1.58.2's settings model)",
  })),
  {
    fact: 'agent server › typescript-client *vent* › body › *',
    kind: 'gap',
    reason:
      "the fake writes its events' fields as the Aug 2026 SDK did: without 1.58.2's parent_id, dynamic_context, cache_prompt on content parts, the empty thinking_blocks and thought defaults and an action's summary, with no statistics updates; each client call's events are its own scripted run",
  },
  {
    fact: 'agent server › typescript-client * › body › *leaf_event_id',
    real: '<id>',
    fake: 'null',
    kind: 'gap',
    reason:
      'after a fork from it, 1.58.2 writes the leaf_event_id of the branch a conversation runs on; the fake writes null until a navigate sets one',
  },
  {
    fact: 'agent server › typescript-client * › body › *secret_registry.*',
    kind: 'gap',
    reason:
      "1.58.2 leaves a forked conversation's secrets behind, and registers none a RemoteConversation sends as StaticSecret objects; the fake keeps the names of both",
  },
];
