/**
 * `POST /api/v1/settings` with the newest payload (openhands `app_server/settings/settings_router.py`,
 * store_settings; `settings_models.py`, Settings.update): the older nested keys `agent_settings` and
 * `conversation_settings` refused with a 422 `{error, keys}` and nothing changed;
 * `agent_settings_diff` and `conversation_settings_diff` deep-merged into the stored settings, except
 * that an `mcp_config` in the agent diff replaces the stored one whole; the flat keys set as given,
 * where a null analytics consent or skill list keeps the stored one and an empty search key clears it.
 * The merge and its checks are the agent server's (`updateAgentSettings`: one user, one store). A
 * value the settings cannot take answers a FastAPI 422 (the real one answers 500 "Something went
 * wrong storing settings").
 */
import { updateAgentSettings } from '../agent-world/settings.js';
import { isRefusal, Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { LEGACY_NESTED_KEYS, type SettingsUpdate } from '../../schemas/user-settings.js';
import { updateSettings } from './settings.js';

/** The 422 of a payload in the older nested shape: its own body, not FastAPI's `detail`. */
const legacyKeysRefused = (keys: string[]) =>
  new Refusal('invalid', 'Use *_diff nested settings payloads instead of legacy keys', {
    body: { error: 'Use *_diff nested settings payloads instead of legacy keys', keys },
  });

/**
 * Stores a settings update: the older nested keys refused first, then the diffs (a value the
 * settings cannot take answers 422 and changes nothing), then the flat keys. Answers
 * `{message: 'Settings stored'}`.
 */
export async function storeSettings(state: DomainState, update: SettingsUpdate): Promise<{ message: string } | Refusal> {
  const legacy = LEGACY_NESTED_KEYS.filter((key) => key in update).sort();
  if (legacy.length > 0) return legacyKeysRefused(legacy);
  const {
    agent_settings_diff: agentDiff,
    conversation_settings_diff: conversationDiff,
    agent_settings: _agent,
    conversation_settings: _conversation,
    ...flat
  } = update;
  if (agentDiff || conversationDiff) {
    const answer = await updateAgentSettings(
      state,
      {
        ...(agentDiff ? { agent_settings_diff: agentDiff } : {}),
        ...(conversationDiff ? { conversation_settings_diff: conversationDiff } : {}),
      },
      [],
      { replaceMcpConfig: true },
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
