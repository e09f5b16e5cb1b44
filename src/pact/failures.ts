/**
 * What the Pact verifier reports, made readable (`verify.ts`): each failed interaction in one line
 * with its first difference, colour codes and line breaks gone.
 */

/** Longest difference shown for one failed interaction. */
const DIFFERENCE_CHARS = 240;

/** One line for a difference the verifier found (its text may span lines and carry colour codes). */
export const oneLine = (text: string) => {
  const flat = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colours of the verifier's output
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > DIFFERENCE_CHARS ? `${flat.slice(0, DIFFERENCE_CHARS)}…` : flat;
};

/** Readable lines from the verifier's error, which carries its JSON result as the message: each failed interaction with its first difference. */
export function describeFailures(message: string): { lines: string[]; failed: number } {
  try {
    const result = JSON.parse(message) as {
      errors?: {
        interaction?: string;
        mismatch?: { message?: string; mismatches?: { mismatch?: string; path?: string; type?: string }[] };
      }[];
    };
    const lines = (result.errors ?? []).map((e) => {
      const name = (e.interaction ?? 'an interaction').replace(/^Verifying a pact between .+? and .+? /, '');
      // A wrong status says most (a 200 where the contract wants a 401): it comes first.
      const all = [...(e.mismatch?.mismatches ?? [])].sort(
        (x, y) => Number(/status/i.test(y.type ?? '')) - Number(/status/i.test(x.type ?? '')),
      );
      const first = all[0];
      const more = all.length > 1 ? `; and ${all.length - 1} more difference${all.length > 2 ? 's' : ''}` : '';
      const where = first?.path ? `${first.path}: ` : /status/i.test(first?.type ?? '') ? 'status: ' : '';
      const difference = first?.mismatch
        ? `${where}${oneLine(first.mismatch)}${more}`
        : e.mismatch?.message
          ? oneLine(e.mismatch.message)
          : '';
      return `interaction failed: ${name}${difference ? ` (${difference})` : ''}`;
    });
    if (lines.length > 0) return { lines, failed: lines.length };
  } catch {
    // Not the JSON result: report the message as it is.
  }
  return { lines: [`the verifier failed: ${message.split('\n')[0]}`], failed: 0 };
}
