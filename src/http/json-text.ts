/**
 * Bodies written as JSON text by the route itself, from pieces written once: a page of stored
 * events is mostly the same events page after page, and a stored event never changes (the store
 * makes a new record rather than change one), so each is written once and its text reused. The
 * pipeline answers a `JsonText` as it is, and checks it like any body when checks are on.
 */

/** A 200 body already written as JSON (what `JSON.stringify` of the value would write). */
export class JsonText {
  /** The body's text. */
  constructor(readonly text: string) {}
}

/** Most values whose text is kept; past it the oldest is dropped (about 2 MB of event text). */
const KEPT = 4096;
const written = new Map<object, string>();

/** The JSON text of a value that is never changed once made (a stored event), written the first time it is asked for. */
export function jsonOnce(value: object): string {
  let text = written.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    if (written.size >= KEPT) written.delete(written.keys().next().value!);
    written.set(value, text);
  }
  return text;
}

/**
 * A page (`{"items": [...], "next_page_id": ...}`) whose items never change once made, as JSON:
 * each item's text written once (`jsonOnce`).
 * @example
 * return pageText(searchEvents(state, conversation, filters))
 */
export function pageText(page: { items: readonly object[]; next_page_id: string | null }): JsonText {
  let items = '';
  for (const item of page.items) items += items === '' ? jsonOnce(item) : `,${jsonOnce(item)}`;
  return new JsonText(`{"items":[${items}],"next_page_id":${JSON.stringify(page.next_page_id)}}`);
}
