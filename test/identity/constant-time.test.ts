import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { safeEqual } from '../../core/identity/safe-equal.ts';

/**
 * Every secret is compared in constant time (issue 3). Timing cannot be measured reliably on a shared
 * machine, so this holds the code to it instead: in the modules that handle credentials, nothing whose
 * name says secret (password, hash, token, nonce, secret, signature, API or access key) is compared with === or !==,
 * and the comparisons they do make go through crypto.timingSafeEqual.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SCANNED = ['core/identity', 'core/admin', 'core/http'];
const SECRET = /(password|pwd|hash|token|nonce|secret|signature|apikey|api_key|access_key|accesskey)/i;
const LITERAL = /^(['"`].*|-?\d+(\.\d+)?|null|undefined|true|false)$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Operands of === / !== on a line, roughly: enough to find `a === b` between two named values. */
function comparisons(line: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of line.matchAll(/([\w.$!?\]\[)(]+)\s*(?:===|!==)\s*([\w.$'"`\][)(-]+)/g)) out.push([m[1]!, m[2]!]);
  return out;
}

describe('constant-time comparison of secrets', () => {
  it('safeEqual compares by content, any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('é', 'e')).toBe(false);
  });

  it('is how the credential code compares: no secret meets === or !==', () => {
    const offending: string[] = [];
    for (const file of SCANNED.flatMap((d) => files(join(ROOT, d)))) {
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (/^\s*(\*|\/\*)/.test(code)) return;
        for (const [a, b] of comparisons(code)) {
          const operands = [a.replace(/^[!(]+/, ''), b.replace(/[)]+$/, '')];
          if (operands.some((o) => LITERAL.test(o) || /\.length$/.test(o) || /^typeof\b/.test(o))) continue;
          if (code.includes(`typeof ${operands[0]}`)) continue;
          if (operands.some((o) => SECRET.test(o))) offending.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offending).toEqual([]);
  });

  it('the modules that check credentials use timingSafeEqual (directly or through safeEqual)', () => {
    const uses = (f: string) => /\b(timingSafeEqual|safeEqual)\(/.test(readFileSync(join(ROOT, f), 'utf8'));
    for (const f of ['core/identity/safe-equal.ts', 'core/identity/passwords.ts', 'core/identity/nonces.ts', 'core/identity/app-passwords.ts', 'core/identity/sessions.ts']) {
      expect([f, uses(f)]).toEqual([f, true]);
    }
  });
});
