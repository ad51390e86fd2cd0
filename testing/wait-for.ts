/**
 * Waits until `check` answers something truthy and answers it; throws, naming `what`, when `timeoutMs`
 * pass first. A test awaits it and cannot forget to look at the outcome (as a boolean `eventually()`
 * let seven tests do).
 */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  { timeoutMs = 5000, everyMs = 50, what = 'the condition' }: { timeoutMs?: number; everyMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) {
      const seen = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`waited ${timeoutMs} ms for ${what}; last seen: ${seen}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
