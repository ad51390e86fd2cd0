/**
 * A case-insensitive "contains" pattern for `lower(…) like $n`: the text lowered, with LIKE's own
 * wildcards (`%`, `_`) and its escape (`\`) escaped, so a search for "100%" means exactly that.
 */
export function containsPattern(text: string): string {
  return `%${escaped(text)}%`;
}

/** The same for "starts with": to rank the matches that begin with what was typed first. */
export function startsPattern(text: string): string {
  return `${escaped(text)}%`;
}

function escaped(text: string): string {
  return text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}
