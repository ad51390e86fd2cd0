/**
 * Text the service cannot store or show: PostgreSQL refuses the NUL character in text, and a lone
 * UTF-16 surrogate is not a character at all (it cannot be encoded as UTF-8). Every surface refuses
 * such input at its edge, once, before anything reads it (issue 14): a 400 in its own error shape.
 */
const BAD = /[\u0000]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** How deep and how wide a request's data may be before it is refused (JSON bodies, forms). */
export const MAX_DEPTH = 32;
export const MAX_KEYS = 10_000;

export type TextProblem = { where: string; problem: 'bad_character' | 'too_deep' | 'too_many_keys' };

/**
 * The first problem in `value` (strings anywhere in it, object keys included), or null. `where` names
 * the place (`body.items[2].name`) for the error message.
 */
export function textProblem(value: unknown, where: string): TextProblem | null {
  let keys = 0;
  const walk = (v: unknown, at: string, depth: number): TextProblem | null => {
    if (typeof v === 'string') return BAD.test(v) ? { where: at, problem: 'bad_character' } : null;
    if (v === null || typeof v !== 'object') return null;
    if (depth > MAX_DEPTH) return { where: at, problem: 'too_deep' };
    if (Array.isArray(v)) {
      keys += v.length;
      if (keys > MAX_KEYS) return { where: at, problem: 'too_many_keys' };
      for (let i = 0; i < v.length; i++) {
        const p = walk(v[i], `${at}[${i}]`, depth + 1);
        if (p) return p;
      }
      return null;
    }
    for (const [k, child] of Object.entries(v)) {
      if (++keys > MAX_KEYS) return { where: at, problem: 'too_many_keys' };
      if (BAD.test(k)) return { where: `${at}.${k.replace(BAD, '?')}`, problem: 'bad_character' };
      const p = walk(child, `${at}.${k}`, depth + 1);
      if (p) return p;
    }
    return null;
  };
  return walk(value, where, 0);
}

/** The words of a problem, for the error message. */
export function describeTextProblem(p: TextProblem): string {
  switch (p.problem) {
    case 'bad_character':
      return `${p.where} contains a character that is not allowed (NUL or an unpaired surrogate).`;
    case 'too_deep':
      return `${p.where} is nested more than ${MAX_DEPTH} levels deep.`;
    case 'too_many_keys':
      return `The request has more than ${MAX_KEYS} fields.`;
  }
}
