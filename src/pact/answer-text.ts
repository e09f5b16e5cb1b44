/** How `fakehands verify` reads a provider's answers: never more than a bound, whatever the provider sends. */
import { FakehandsError } from '../domain/store/errors.js';

/** Most bytes read of one answer of the provider, or of one socket frame (16 MiB): past them the read stops and the verification fails, naming the cap. */
export const MAX_PROVIDER_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * The text of an answer's body, read up to `MAX_PROVIDER_ANSWER_BYTES`: past them the read is
 * cancelled and a `contract_violation` names the route and the cap (an answer that never ended
 * was read at 110 MB/s until the time limit, 11.8 GB in memory).
 * @example
 * const text = await answerText(await fetch(url), 'GET /api/v1/app-conversations')
 */
export async function answerText(response: Response, route: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_PROVIDER_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new FakehandsError(
        'contract_violation',
        `${route}: the provider's answer is larger than ${MAX_PROVIDER_ANSWER_BYTES} bytes (16 MiB), the most fakehands verify --messages reads of one answer; it stopped reading there`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
