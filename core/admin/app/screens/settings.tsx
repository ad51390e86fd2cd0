import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError } from '../api.ts';
import type { SettingField } from '../../wire.ts';
import { Busy, Field, Notice, type Props } from '../ui.tsx';
import { Wording } from './wording.tsx';

/** The Settings screen; with `props.slug`, a plugin's options screen (one section, the plugin's capability). */
export function Settings({ props }: { props: Props & { slug?: string; description?: string } }) {
  const screen = props.slug ? { screen: props.slug } : {};
  const [sections, setSections] = useState<Array<{ id: string; title: string; fields: SettingField[] }> | null>(null);
  const [changes, setChanges] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    ajax<{ sections: typeof sections }>(props.slug ? 'billing_get_screen_options' : 'billing_get_settings', screen).then(
      (d) => setSections(d.sections),
      (e: ApiError) => setNotice({ kind: 'error', text: e.message }),
    );
  }, []);
  useEffect(() => {
    const guard = (e: BeforeUnloadEvent) => {
      if (Object.keys(changes).length) {
        e.preventDefault();
        e.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [changes]);
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setNotice(null);
    setErrors({});
    try {
      const r = await ajax<{ saved: string[]; cleared?: string[]; sections: typeof sections }>(
        props.slug ? 'billing_save_screen_options' : 'billing_save_settings',
        {
          ...screen,
          settings: JSON.stringify(changes),
        },
      );
      setSections(r.sections);
      setChanges({});
      // a changed API base empties its gateway's secrets: say which, so they are given again
      const cleared = r.cleared?.length ? ` The API base changed, so these were emptied: ${r.cleared.join(', ')}.` : '';
      setNotice({ kind: 'ok', text: r.saved.length ? `Settings saved.${cleared}` : 'Nothing to save: no setting was changed.' });
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.params);
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }
  const change = (f: SettingField, raw: string | boolean) => {
    let value: unknown = raw;
    if (f.input === 'number') value = raw === '' ? (f.nullable ? null : raw) : Number(raw);
    setChanges({ ...changes, [f.key]: value });
  };
  if (!sections) return notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : <Busy text="Loading…" />;
  // the Settings screen itself ends with the site's own wording; a plugin's options screen does not
  if (props.slug) return form(sections);
  return (
    <div>
      {form(sections)}
      <Wording />
    </div>
  );

  function form(all: NonNullable<typeof sections>) {
    return (
      <form class="billing-settings" onSubmit={save} noValidate>
        {props.description && <p class="billing-sub">{props.description}</p>}
        {!props.slug && (
          <p class="billing-sub">
            <a href="import-export.php">Import &amp; export</a>: bring clients, invoices and payments in from a CSV file.
          </p>
        )}
        {all.length > 1 && (
          <div role="navigation" aria-label="Sections" class="billing-section-nav">
            {all.map((s) => (
              <a href={`#section-${s.id}`}>{s.title}</a>
            ))}
          </div>
        )}
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        {all.map((s) => (
          <fieldset id={`section-${s.id}`}>
            <legend>{s.title}</legend>
            <div class="billing-grid">
              {s.fields.map((f) => {
                const id = `opt-${f.key}`;
                const value = f.key in changes ? changes[f.key] : f.value;
                const hint = f.secret
                  ? `${f.isSet ? 'Set' : 'Not set'}. Write-only: type a new value to replace it, or leave empty to keep it.`
                  : f.description;
                if (f.input === 'checkbox')
                  return (
                    <div class="billing-field">
                      <label class="billing-check">
                        <input
                          id={id}
                          type="checkbox"
                          checked={Boolean(value)}
                          onChange={(e) => change(f, (e.target as HTMLInputElement).checked)}
                        />{' '}
                        {f.label}
                      </label>
                      {hint && <small class="billing-hint">{hint}</small>}
                      {errors[f.key] && <small class="billing-field-error">{errors[f.key]}</small>}
                    </div>
                  );
                return (
                  <Field id={id} label={f.label} hint={hint} error={errors[f.key]}>
                    {f.input === 'select' ? (
                      <select id={id} value={String(value ?? '')} onChange={(e) => change(f, (e.target as HTMLSelectElement).value)}>
                        {f.choices!.map((c) => (
                          <option value={c}>{c.replace(/_/g, ' ')}</option>
                        ))}
                      </select>
                    ) : (
                      <input
                        id={id}
                        type={f.secret ? 'password' : f.input === 'number' ? 'number' : 'text'}
                        autocomplete={f.secret ? 'new-password' : 'off'}
                        step={f.input === 'number' ? 'any' : undefined}
                        value={f.secret ? String(changes[f.key] ?? '') : value === null || value === undefined ? '' : String(value)}
                        onInput={(e) => change(f, (e.target as HTMLInputElement).value)}
                      />
                    )}
                  </Field>
                );
              })}
            </div>
          </fieldset>
        ))}
        <div class="billing-actions billing-sticky">
          <button type="submit" class="button-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          {Object.keys(changes).length > 0 && <span>{Object.keys(changes).length} unsaved changes</span>}
        </div>
      </form>
    );
  }
}
