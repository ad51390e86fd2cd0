import { useEffect, useRef, useState } from 'preact/hooks';
import { download, rest } from '../api.ts';
import type { ImportPreview, ImportState } from '../rest-types.ts';
import { Busy, DataTable, Field, Notice, type Props } from '../ui.tsx';

/** A resource a CSV can be imported as, as the server lists it in the screen's props. */
interface ResourceSpec {
  name: string;
  label: string;
  fields: Array<{ name: string; label: string }>;
  presets: string[];
}

const PRESET_NAMES: Record<string, string> = {
  generic: 'Generic (our column names, or matched by name)',
  'invoice-ninja': 'Invoice Ninja',
  freshbooks: 'FreshBooks',
  wave: 'Wave',
  zoho: 'Zoho Invoice',
};

const POLL_MS = 500;

/**
 * Settings › Import & export: upload a CSV, choose what it holds and which product wrote it, check the
 * proposed mapping against the first rows (and change it), then import with a progress bar and see
 * what happened row by row. The server does all the reading (POST /imports, /imports/{id}/commit).
 */
export function ImportExport({ props }: { props: Props & { resources: ResourceSpec[] } }) {
  const resources = props.resources;
  const [resource, setResource] = useState(resources[0]?.name ?? 'clients');
  const [preset, setPreset] = useState('generic');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const [decimal, setDecimal] = useState<'.' | ','>('.');
  const [dates, setDates] = useState('auto');
  const [state, setState] = useState<ImportState | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const timer = useRef<number | null>(null);
  useEffect(() => () => void (timer.current !== null && clearTimeout(timer.current)), []);
  const spec = resources.find((r) => r.name === resource) ?? resources[0]!;

  async function upload(e: Event) {
    e.preventDefault();
    const file = (e.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>('input[type=file]')!.files?.[0];
    setError('');
    setPreview(null);
    setState(null);
    if (!file) return setError('Choose a CSV file first.');
    setBusy(true);
    try {
      const q = new URLSearchParams({ resource, preset });
      const r = await rest<ImportPreview>(`/imports?${q}`, { method: 'POST', file: { bytes: file, type: 'text/csv' } });
      setPreview(r.data);
      setMapping({ ...(r.data.mapping as Record<string, string | null>) });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function follow(id: number) {
    const { data } = await rest<ImportState>(`/imports/${id}`);
    setState(data);
    if (data.status === 'queued' || data.status === 'running')
      timer.current = window.setTimeout(() => void follow(id).catch(fail), POLL_MS);
  }
  const fail = (err: unknown) => setError(err instanceof Error ? err.message : String(err));

  async function commit() {
    if (!preview) return;
    setError('');
    setBusy(true);
    try {
      const { data } = await rest<ImportState>(`/imports/${preview.id}/commit`, {
        method: 'POST',
        body: { mapping, decimal_separator: decimal, date_format: dates },
      });
      setState(data);
      if (data.status === 'queued' || data.status === 'running') await follow(preview.id);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  // a field fills one column: choosing it for a column takes it from the one that had it
  const choose = (column: string, field: string | null) => {
    const next = { ...mapping };
    if (field) for (const c of Object.keys(next)) if (next[c] === field) next[c] = null;
    setMapping({ ...next, [column]: field });
  };
  const sample = (column: string) => {
    const field = mapping[column];
    return field
      ? (preview?.sample ?? [])
          .map((row) => row[field] ?? '')
          .filter((v) => v !== '')
          .slice(0, 2)
          .join(' · ')
      : '';
  };
  const running = state && (state.status === 'queued' || state.status === 'running');
  return (
    <div class="billing-import">
      <p class="billing-sub">
        Bring clients, invoices and payments in from a CSV file — your own, or an export of Invoice Ninja, FreshBooks, Wave or Zoho Invoice.
        Importing the same file again creates nothing twice.
      </p>
      <form class="billing-panel" onSubmit={upload} aria-label="Upload a CSV file">
        <Field id="import-resource" label="Import as">
          <select id="import-resource" value={resource} onChange={(e) => setResource(e.currentTarget.value)}>
            {resources.map((r) => (
              <option value={r.name}>{r.label}</option>
            ))}
          </select>
        </Field>
        <Field id="import-preset" label="Exported from">
          <select id="import-preset" value={preset} onChange={(e) => setPreset(e.currentTarget.value)}>
            {['generic', ...spec.presets].map((p) => (
              <option value={p}>{PRESET_NAMES[p] ?? p}</option>
            ))}
          </select>
        </Field>
        <Field id="import-file" label="CSV file" error={!preview ? error : undefined}>
          <input id="import-file" type="file" accept=".csv,.txt,text/csv" />
        </Field>
        <button type="submit" class="button-primary" disabled={busy}>
          Upload
        </button>
      </form>
      {busy && !preview && <Busy text="Reading the file…" />}
      {preview && (
        <section aria-label="Columns and mapping" class="billing-panel">
          <h2>
            {preview.rows === 1 ? '1 row' : `${preview.rows} rows`} · {preview.columns.length} columns
          </h2>
          {preview.errors.length > 0 && (
            <Notice kind="info">
              {preview.errors.map((e) => (
                <div>
                  Row {e.row}: {e.message}
                </div>
              ))}
            </Notice>
          )}
          <div class="billing-table-wrap">
            <table class="billing-table">
              <caption class="screen-reader-text">Columns of the file and the field each fills</caption>
              <thead>
                <tr>
                  <th scope="col">Column</th>
                  <th scope="col">Field</th>
                  <th scope="col">First rows</th>
                </tr>
              </thead>
              <tbody>
                {preview.columns.map((c, i) => (
                  <tr>
                    <td data-label="Column">
                      <label for={`map-${i}`}>{c}</label>
                    </td>
                    <td data-label="Field">
                      <select
                        id={`map-${i}`}
                        value={mapping[c] ?? ''}
                        disabled={Boolean(state)}
                        onChange={(e) => choose(c, e.currentTarget.value || null)}
                      >
                        <option value="">(ignore)</option>
                        {spec.fields.map((f) => (
                          <option value={f.name}>{f.label}</option>
                        ))}
                      </select>
                    </td>
                    <td data-label="First rows">{sample(c)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="billing-import-options">
            <Field id="import-decimal" label="Decimal separator">
              <select
                id="import-decimal"
                value={decimal}
                disabled={Boolean(state)}
                onChange={(e) => setDecimal(e.currentTarget.value as '.' | ',')}
              >
                <option value=".">Point (1,234.50)</option>
                <option value=",">Comma (1.234,50)</option>
              </select>
            </Field>
            <Field id="import-dates" label="Dates written as">
              <select id="import-dates" value={dates} disabled={Boolean(state)} onChange={(e) => setDates(e.currentTarget.value)}>
                {['auto', 'Y-m-d', 'd/m/Y', 'm/d/Y', 'd.m.Y', 'd-m-Y'].map((d) => (
                  <option value={d}>{d === 'auto' ? 'Detect' : d}</option>
                ))}
              </select>
            </Field>
          </div>
          {!state && (
            <button type="button" class="button-primary" disabled={busy} onClick={() => void commit()}>
              Import
            </button>
          )}
          {preview && error && <Notice kind="error">{error}</Notice>}
        </section>
      )}
      {state && (
        <section aria-label="Import result" class="billing-panel">
          <h2>{running ? 'Importing…' : state.status === 'failed' ? 'The import stopped' : 'Imported'}</h2>
          <progress aria-label="Import progress" max={1} value={state.progress} />
          {state.error && <Notice kind="error">{state.error}</Notice>}
          <dl class="billing-facts">
            <dt>Created</dt>
            <dd>{state.created}</dd>
            <dt>Updated</dt>
            <dd>{state.updated}</dd>
            <dt>Already here</dt>
            <dd>{state.skipped}</dd>
            <dt>Not imported</dt>
            <dd>{state.failed.length}</dd>
          </dl>
          {state.failed.length > 0 && (
            <DataTable
              data={{ items: state.failed, total: state.failed.length, pages: 1 }}
              caption="Rows not imported"
              columns={[
                { label: 'Row', cell: (f) => f.row, num: true },
                { label: 'Why', cell: (f) => f.message },
              ]}
              empty="None."
            />
          )}
        </section>
      )}
      <ExportPanel />
    </div>
  );
}

/** Moving out: everything as one archive, restored elsewhere with `billing import <archive>`. */
function ExportPanel() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function take() {
    setBusy(true);
    setError('');
    try {
      await download('/export');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section aria-label="Export" class="billing-panel">
      <h2>Export everything</h2>
      <p class="billing-sub">
        One archive of every client, document, payment, setting and the audit log, to keep or to move to another server with{' '}
        <code>billing import &lt;archive&gt;</code>. Passwords and gateway keys are left out; they leave only through the command line.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <button type="button" class="button" onClick={take} disabled={busy}>
        Download export
      </button>
      {busy && <Busy text="Writing the archive…" />}
    </section>
  );
}
