import { readFile, stat } from 'node:fs/promises';
import { CLI } from '../audit/audit.ts';
import type { Command } from '../cli/command.ts';
import { BillingError } from '../errors.ts';
import { MAX_KEYS_PER_UPDATE } from './translation-routes.ts';
import { OVERRIDE_MAX_CHARS, shippedTag, type Translations } from './translations.ts';

/** A file of overrides: every key at its longest, and then some. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * `billing translations export <locale>` (every key with the text that prints now: the override, else
 * the shipped one) and `billing translations import <locale> <file.json>` (the same `{key: text}` JSON;
 * a text equal to the shipped one clears the override, `null` too).
 */
export function translationCommands(translations: Translations): Command[] {
  return [
    {
      words: ['translations', 'export'],
      usage: 'billing translations export <locale>',
      arity: 1,
      run: async ({ args }) => {
        const entries = await translations.entries(shippedTag(args[0]!));
        return Object.fromEntries(entries.map((e) => [e.key, e.override ?? e.text]));
      },
      text: (r) => JSON.stringify(r, null, 2),
    },
    {
      words: ['translations', 'import'],
      usage: 'billing translations import <locale> <file.json>',
      arity: 2,
      run: async ({ args }) => {
        const locale = shippedTag(args[0]!);
        const file = args[1]!;
        if ((await stat(file)).size > MAX_FILE_BYTES) throw new BillingError('billing_invalid_argument', `${file} is larger than 4 MiB`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(await readFile(file, 'utf8'));
        } catch {
          throw new BillingError('billing_invalid_argument', `${file} is not JSON`);
        }
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new BillingError('billing_invalid_argument', `${file} must hold a JSON object {key: text}`);
        const entries = Object.entries(parsed as Record<string, unknown>);
        if (entries.length > MAX_KEYS_PER_UPDATE)
          throw new BillingError('billing_invalid_argument', `${file} has more than ${MAX_KEYS_PER_UPDATE} keys`);
        const shipped = new Map((await translations.entries(locale)).map((e) => [e.key, e.text]));
        // an exported file imported as it is changes nothing: the shipped texts in it are no overrides
        const changes = Object.fromEntries(
          entries.map(([key, text]) => [
            key,
            text === shipped.get(key) ? null : typeof text === 'string' ? text.slice(0, OVERRIDE_MAX_CHARS + 1) : text,
          ]),
        );
        await translations.update(locale, changes, CLI);
        return { locale, keys: entries.length, overrides: entries.filter(([k, t]) => t !== null && t !== shipped.get(k)).length };
      },
      text: (r) => `${r.keys} keys read; ${r.overrides} overrides of ${r.locale} now set from the file.`,
    },
  ];
}
