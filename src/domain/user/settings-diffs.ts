/**
 * `POST /api/v1/settings` with the newest payload (openhands `app_server/settings/settings_models.py`,
 * Settings.update): `agent_settings_diff` and `conversation_settings_diff` deep-merged into the
 * stored settings; the flat keys set as given. The merge and its checks are the agent server's
 * (`updateAgentSettings`: one user, one store; unlike the real app server it merges `mcp_config` too
 * instead of replacing it whole). A value the settings cannot take answers a FastAPI 422 (the real
 * one answers 500 "Something went wrong storing settings").
 */
import { updateAgentSettings } from '../agent-world/settings.js';
import { isRefusal, Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import type { SettingsUpdate } from '../../schemas/user-settings.js';
import { updateSettings } from './settings.js';

/**
 * Stores a settings update: the diffs first (a value the settings cannot take answers 422 and changes
 * nothing), then the flat keys. Answers `{message: 'Settings stored'}`.
 */
export async function storeSettings(state: DomainState, update: SettingsUpdate): Promise<{ message: string } | Refusal> {
  const { agent_settings_diff: agentDiff, conversation_settings_diff: conversationDiff, ...flat } = update;
  if (agentDiff || conversationDiff) {
    const answer = await updateAgentSettings(
      state,
      {
        ...(agentDiff ? { agent_settings_diff: agentDiff } : {}),
        ...(conversationDiff ? { conversation_settings_diff: conversationDiff } : {}),
      },
      [],
    );
    if (isRefusal(answer)) {
      const where = agentDiff ? 'agent_settings_diff' : 'conversation_settings_diff';
      const detail = [
        { type: 'value_error', loc: ['body', where], msg: 'Value error, settings validation failed', input: agentDiff ?? conversationDiff },
      ];
      return new Refusal('invalid', 'settings validation failed', { body: { detail } });
    }
  }
  return updateSettings(state, flat);
}
