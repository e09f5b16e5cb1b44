/**
 * What the scripted LLM was asked: every request it received, kept in order and readable (what an
 * agent sent its model: the system prompt, the tools, the history), bounded by count and by bytes
 * so a long session cannot grow it without end (the oldest go first). Credentials are never kept:
 * the headers that carry a key are left out, whatever their case.
 */

/** One request the LLM received. */
export interface LlmRequestRecord {
  /** Its place in the order of arrival, from 1. */
  readonly seq: number;
  /** When it arrived (ISO 8601). */
  readonly at: string;
  /** The API it was addressed to. */
  readonly api: 'chat' | 'responses' | 'messages' | 'models';
  /** The path it was sent to. */
  readonly path: string;
  /** The model it named (`null` for the model list). */
  readonly model: string | null;
  /** Whether it asked for a stream. */
  readonly stream: boolean;
  /** Its headers, without any that carry a credential. */
  readonly headers: Readonly<Record<string, string>>;
  /** Its JSON body (`null` for a GET). */
  readonly body: unknown;
  /** The status it was answered with. */
  readonly status: number;
}

/** Most requests kept. */
export const MAX_KEPT_REQUESTS = 1000;
/** Most bytes of request bodies kept. */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;

/** Headers that carry a credential: never kept. */
const SECRET_HEADERS =
  /^(authorization|proxy-authorization|x-api-key|api-key|cookie|x-session-api-key|openai-organization|openai-project)$/i;

/** The headers of a request worth keeping: every one but those that carry a credential. */
export function keptHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of headers) if (!SECRET_HEADERS.test(name)) kept[name.toLowerCase()] = value;
  return kept;
}

/** The requests an LLM received, oldest first, within `MAX_KEPT_REQUESTS` and `MAX_KEPT_BYTES`. */
export class RequestLog {
  #records: { record: LlmRequestRecord; bytes: number }[] = [];
  #bytes = 0;
  #seq = 0;

  /** The next request's number (one more than the last one's). */
  next(): number {
    this.#seq += 1;
    return this.#seq;
  }

  /** Keeps `record`, whose body text was `bytes` long, dropping the oldest past the bounds. */
  add(record: LlmRequestRecord, bytes: number): void {
    this.#records.push({ record, bytes });
    this.#bytes += bytes;
    while (this.#records.length > MAX_KEPT_REQUESTS || (this.#bytes > MAX_KEPT_BYTES && this.#records.length > 1)) {
      this.#bytes -= this.#records.shift()!.bytes;
    }
  }

  /** The requests kept, oldest first. */
  list(): LlmRequestRecord[] {
    return this.#records.map((r) => r.record);
  }

  /** Forgets every request (the numbering goes on). */
  clear(): void {
    this.#records = [];
    this.#bytes = 0;
  }
}
