import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Catalogue, placeholders, type TranslationsDeclaration } from './catalogue.ts';
import { canonicalLocale, SHIPPED_LOCALES, shippedLocale } from './locale-tag.ts';
import { Translator } from './translator.ts';

const PLUGINS = join(import.meta.dirname, '../../plugins');

/** The shipped catalogue with every bundled plugin's keys merged in, as a site with all of them active has it. */
async function fullCatalogue(): Promise<{ catalogue: Catalogue; owners: string[] }> {
  const catalogue = new Catalogue();
  const owners: string[] = [];
  for (const name of readdirSync(PLUGINS)) {
    const plugin = (await import(join(PLUGINS, name, 'index.ts'))).default as { translations?: TranslationsDeclaration };
    if (plugin?.translations) {
      catalogue.add(name, plugin.translations);
      owners.push(name);
    }
  }
  return { catalogue, owners };
}

describe('the shipped texts, every key in every language', () => {
  it('has each English key in every shipped language, no key of its own, the same placeholders, and parses as ICU', async () => {
    const { catalogue } = await fullCatalogue();
    const keys = catalogue.keys();
    expect(keys.length).toBeGreaterThan(100);
    for (const locale of SHIPPED_LOCALES) {
      const own = catalogue.messages(locale);
      expect([locale, keys.filter((k) => !(k in own))]).toEqual([locale, []]);
      expect([locale, Object.keys(own).filter((k) => !keys.includes(k))]).toEqual([locale, []]);
      for (const key of keys) {
        const text = own[key]!;
        expect([locale, key, text.trim() === text && text.length > 0]).toEqual([locale, key, true]);
        expect([locale, key, placeholders(text)]).toEqual([locale, key, placeholders(catalogue.shipped('en', key)!)]);
        // ICU parses it, and filling it leaves no brace and never the key
        const values = Object.fromEntries(placeholders(text).map((p) => [p, `<${p}>`]));
        const filled = new Translator(catalogue, locale).t(key, values);
        expect([locale, key, /[{}]/.test(filled) || filled === key]).toEqual([locale, key, false]);
      }
    }
  });

  it('carries the service period for when documents print one', () => {
    const catalogue = new Catalogue();
    const period = Object.fromEntries(SHIPPED_LOCALES.map((l) => [l, catalogue.messages(l)['document.service_period']]));
    expect(period).toEqual({
      en: 'Service period',
      de: 'Leistungszeitraum',
      fr: 'Période de prestation',
      es: 'Periodo de servicio',
      it: 'Periodo di riferimento',
      nl: 'Prestatieperiode',
    });
  });

  it('merges plugin keys, refuses a key declared twice or without English, and drops them on unload', () => {
    const catalogue = new Catalogue();
    catalogue.add('demo', { en: { 'demo.hello': 'Hello {name}' }, de: { 'demo.hello': 'Hallo {name}' } });
    expect(new Translator(catalogue, 'de').t('demo.hello', { name: 'Zoë' })).toBe('Hallo Zoë');
    // a language the plugin does not ship falls back to its English
    expect(new Translator(catalogue, 'fr').t('demo.hello', { name: 'Zoë' })).toBe('Hello Zoë');
    expect(() => catalogue.add('other', { en: { 'demo.hello': 'again' } })).toThrow(/already declared/);
    expect(() => catalogue.add('other', { en: {}, de: { 'other.x': 'x' } })).toThrow(/no English text/);
    catalogue.remove('demo');
    expect(catalogue.keys()).not.toContain('demo.hello');
    expect(() => new Translator(catalogue, 'de').t('demo.hello')).toThrow(/no text has the key/);
  });

  it('prints an override instead of the shipped text, and plurals through ICU', () => {
    const catalogue = new Catalogue();
    const de = new Translator(catalogue, 'de', { 'document.invoice_number': 'Faktura {number}' });
    expect(de.t('document.invoice_number', { number: 'INV-1' })).toBe('Faktura INV-1');
    expect(de.t('document.quote_number', { number: 'QUO-1' })).toBe('Angebot QUO-1');
    catalogue.add('demo', { en: { 'demo.items': '{count, plural, one {# item} other {# items}}' } });
    expect(new Translator(catalogue, 'en').t('demo.items', { count: 1 })).toBe('1 item');
    expect(new Translator(catalogue, 'en').t('demo.items', { count: 3 })).toBe('3 items');
  });
});

describe('locale tags', () => {
  it('takes well-formed BCP 47 tags in their canonical form, and nothing else', () => {
    expect(['de', 'PT-br', 'fr-CH', 'zh-Hant-TW', 'es-419'].map(canonicalLocale)).toEqual(['de', 'pt-BR', 'fr-CH', 'zh-Hant-TW', 'es-419']);
    expect(['en_US', 'x', '', 'de--1', '12', 'a'.repeat(40), 42, null].map(canonicalLocale)).toEqual(Array(8).fill(null));
  });

  it('prints a tag in its shipped language, or in English', () => {
    expect(['de-AT', 'fr-CH', 'nl', 'pt', 'pt-BR', null, 'IT'].map(shippedLocale)).toEqual(['de', 'fr', 'nl', 'en', 'en', 'en', 'it']);
  });
});

describe('amounts and dates in the locale', () => {
  const tr = (l: (typeof SHIPPED_LOCALES)[number]) => new Translator(new Catalogue(), l);
  it('writes exact amounts as each language does, without a float in the way', () => {
    expect(tr('en').money('1234.50', 'EUR')).toBe('€1,234.50');
    expect(tr('de').money('1234.50', 'EUR')).toBe('1.234,50\u00a0€');
    expect(tr('fr').money('1234.50', 'EUR')).toBe('1\u202f234,50\u00a0€');
    expect(tr('nl').money('12345.50', 'EUR')).toBe('€\u00a012.345,50');
    expect(tr('de').money('99999999999999999999.99', 'EUR')).toBe('99.999.999.999.999.999.999,99\u00a0€');
    expect(tr('de').money('45.5', 'EUR')).toBe('45,50\u00a0€');
    expect(tr('de').money('1.2345', 'EUR')).toBe('1,2345\u00a0€');
    expect(tr('it').money('-12.00', 'CHF')).toBe('-12,00\u00a0CHF');
    expect(tr('de').money('1235', 'JPY')).toBe('1.235\u00a0¥');
    expect(() => tr('de').money('1e3', 'EUR')).toThrow(TypeError);
  });

  it('writes dates as each language does', () => {
    expect(['en', 'de', 'fr', 'es', 'it', 'nl'].map((l) => tr(l as 'en').date('2026-01-31'))).toEqual([
      '31 Jan 2026',
      '31.01.2026',
      '31/01/2026',
      '31/01/2026',
      '31/01/2026',
      '31-01-2026',
    ]);
    expect(tr('de').country('DE')).toBe('Deutschland');
    expect(tr('fr').country('DE')).toBe('Allemagne');
  });
});
