/** What a stored provider token reads as in a snapshot or a state file. */
export const REDACTED = '**********';
