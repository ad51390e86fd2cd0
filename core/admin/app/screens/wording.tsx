import { useEffect, useState } from 'preact/hooks';
import { ApiError, rest } from '../api.ts';
import type { Translations } from '../rest-types.ts';
import { Busy, Field, Notice } from '../ui.tsx';

/** The languages customers' documents ship in (docs/languages.md). */
const LANGUAGES: Array<[string, string]> = [
  ['en', 'English'],
  ['de', 'German'],
  ['fr', 'French'],
  ['es', 'Spanish'],
  ['it', 'Italian'],
  ['nl', 'Dutch'],
];

/**
 * The Settings screen's "Your own wording" section: per language, every customer-facing text with its
 * shipped wording beside the site's own (`GET|PUT /translations/{locale}`). An emptied field clears
 * the override; a field that drops a placeholder such as `{number}` is refused under it.
 */
export function Wording() {
  const [locale, setLocale] = useState('en');
  const [data, setData] = useState<Translations | null>(null);
  const [filter, setFilter] = useState('');
  const [changes, setChanges] = useState<Record<string, string | null>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setData(null);
    setChanges({});
    setErrors({});
    rest<Translations>(`/translations/${locale}`).then(
      (r) => setData(r.data),
      (e: ApiError) => setNotice({ kind: 'error', text: e.message }),
    );
  }, [locale]);

  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    setErrors({});
    try {
      const r = await rest<Translations>(`/translations/${locale}`, { method: 'PUT', body: changes });
      setData(r.data);
      const n = Object.keys(changes).length;
      setChanges({});
      setNotice({ kind: 'ok', text: n ? `Wording saved (${n} ${n === 1 ? 'text' : 'texts'}).` : 'Nothing to save: no text was changed.' });
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.params);
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  const needle = filter.trim().toLowerCase();
  const shown = (data?.keys ?? []).filter(
    (k) => !needle || [k.key, k.text, k.override ?? ''].some((s) => s.toLowerCase().includes(needle)),
  );
  return (
    <form class="billing-settings billing-wording" onSubmit={save} noValidate>
      <fieldset id="section-wording">
        <legend>Your own wording</legend>
        <p class="billing-sub">
          What customers read on documents, pages and mails, in each language. Leave a field empty to keep the shipped text; keep every
          placeholder such as {'{number}'}.
        </p>
        <div class="billing-grid">
          <Field id="wording-locale" label="Language">
            <select id="wording-locale" value={locale} onChange={(e) => setLocale((e.target as HTMLSelectElement).value)}>
              {LANGUAGES.map(([tag, name]) => (
                <option value={tag}>{`${name} (${tag})`}</option>
              ))}
            </select>
          </Field>
          <Field id="wording-filter" label="Find a text">
            <input id="wording-filter" type="search" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
          </Field>
        </div>
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        {!data ? (
          <Busy text="Loading…" />
        ) : (
          <div class="billing-grid">
            {shown.map((k) => {
              const id = `wording-${k.key.replace(/[^a-z0-9_-]/gi, '-')}`;
              const value = k.key in changes ? (changes[k.key] ?? '') : (k.override ?? '');
              return (
                <Field id={id} label={k.key} hint={`Shipped: ${k.text}`} error={errors[k.key]}>
                  <input
                    id={id}
                    type="text"
                    placeholder={k.text}
                    value={value}
                    onInput={(e) => {
                      const text = (e.target as HTMLInputElement).value;
                      setChanges({ ...changes, [k.key]: text.trim() ? text : null });
                    }}
                  />
                </Field>
              );
            })}
          </div>
        )}
      </fieldset>
      <div class="billing-actions">
        <button type="submit" class="button-primary" disabled={busy || !data}>
          {busy ? 'Saving…' : 'Save wording'}
        </button>
        {Object.keys(changes).length > 0 && <span>{Object.keys(changes).length} unsaved texts</span>}
      </div>
    </form>
  );
}
