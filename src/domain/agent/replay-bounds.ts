/**
 * The bound a replay's JSON body holds each event to (`POST /_fakehands/replay`): as much as the ZIP
 * route holds one event file to (`MAX_REPLAY_EVENT_BYTES`), so a replayed event is no larger by
 * either route.
 */
import { MAX_REPLAY_EVENT_BYTES } from '../../schemas/replay.js';
import { weightOf } from '../store/budget.js';
import { invalid, type Refusal } from '../store/refusal.js';

/**
 * The 422 of a replay body with an event of more than `MAX_REPLAY_EVENT_BYTES` of JSON (its place
 * `body.events.N` or `body.trajectory.N`), the bound the ZIP route holds each event file to; `null`
 * when every event is within it.
 */
export function oversizedReplayEvent(source: {
  trajectory?: readonly object[] | undefined;
  events?: readonly object[] | undefined;
}): Refusal | null {
  const [field, items] = source.trajectory ? ['trajectory', source.trajectory] : ['events', source.events ?? []];
  const at = items.findIndex((item) => weightOf(item) > MAX_REPLAY_EVENT_BYTES);
  if (at < 0) return null;
  return invalid([
    {
      type: 'value_error',
      loc: ['body', field, at],
      msg: `Value error, the event holds more than ${MAX_REPLAY_EVENT_BYTES} bytes of JSON (one event may hold at most that)`,
      input: null,
      ctx: { error: {} },
    },
  ]);
}
