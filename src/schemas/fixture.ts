/**
 * A whole data set: what a fixture file holds, what `fake.snapshot()` and `GET /_fakehands/state`
 * answer. Its own module, apart from the records the store validates each write with: a page that
 * loads a built-in fixture (validated when the package was built) never downloads it (issue 23).
 */
import * as z from 'zod/mini';
import { AgentWorldRecord } from './agent-world.js';
import { ShellRecord } from './bash.js';
import { DateTime as WireDateTime, ProviderType } from './common.js';
import { canonicalDateTime } from './datetime.js';
import { ProviderToken } from './legacy.js';
import { MCPConfig } from './mcp.js';
import { AgentEventRecord, ConversationRecord, SandboxRecord, StartTaskRecord } from './records.js';
import { SandboxSpecInfo } from './sandbox-spec.js';
import { GitWorld } from './user-git.js';
import { CustomSecretRecord } from './user-secrets.js';
import { UserSettingsRecord } from './user-settings.js';

/** A stored datetime: any ISO 8601 form is accepted and kept in the canonical form. */
const DateTime = z.pipe(WireDateTime, z.transform(canonicalDateTime));

/** A whole data set: what a fixture file holds and what `fake.snapshot()` returns. */
export const Fixture = z.strictObject({
  /**
   * The instant the fixture's times are written relative to: when given, every time in it is moved
   * by (the clock's start − this), so a fixture written once always looks recent.
   */
  relative_to: z.optional(DateTime),
  sandbox_specs: z.array(SandboxSpecInfo).check(z.minLength(1, 'a fixture needs at least one sandbox spec (the first is the default)')),
  sandboxes: z._default(z.array(SandboxRecord), []),
  conversations: z._default(z.array(ConversationRecord), []),
  start_tasks: z._default(z.array(StartTaskRecord), []),
  /** The event logs of the conversations, oldest first. */
  events: z._default(z.array(AgentEventRecord), []),
  provider_tokens: z._default(z.partialRecord(ProviderType, ProviderToken), {}),
  mcp_config: z._default(z.nullable(MCPConfig), null),
  /** The user's settings; `null`: never saved (the legacy `GET /api/settings` answers 404 until they are). */
  settings: z._default(z.nullable(UserSettingsRecord), null),
  /** The user's custom secrets (names, descriptions, values; values are never answered). */
  secrets: z._default(z.array(CustomSecretRecord), []),
  /** The git world behind the provider tokens; absent: a generated one (the same for every fake). */
  git: z.optional(GitWorld),
  /** The agent host's host-wide state (agent profiles, workspaces, directories, skills, provider connections...); absent: a fresh host's. */
  agent_world: z.optional(AgentWorldRecord),
  /** The agent host's shell: its bash events and the outputs not yet due; absent: an empty shell. */
  shell: z.optional(ShellRecord),
});
export type Fixture = z.infer<typeof Fixture>;
/** A fixture as written by hand: defaults may be left out. */
export type FixtureInput = z.input<typeof Fixture>;

/** `GET /_fakehands/state`: everything the fake holds. */
export const StateSnapshot = Fixture;
