import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError, rest, restPage, type Page } from './api.ts';
import type { FieldSuggestions, ResourceColumn, ResourceField, ResourceProps } from '../wire.ts';
import { Busy, DataTable, Field, FieldNotes, fill, money, Notice, StatusBadge, valueAt, type Column, type Props } from './ui.tsx';

type ColumnSpec = ResourceColumn;
type FieldSpec = ResourceField;
type ActionSpec = ResourceProps['actions'][number];
type ResourceSpec = ResourceProps;

type Row = Record<string, unknown>;

/** A path of the declaration with the row's values put in, each URL-encoded. */
const path = (template: string, row: Row) =>
  template.replace(/\{([\w.]+)\}/g, (_m, k: string) => encodeURIComponent(String(valueAt(row, k) ?? '')));

const words = (v: unknown) => String(v).replace(/_/g, ' ');

/** A value as a column's format reads it. */
function cellOf(c: ColumnSpec, row: Row, currency: string): ComponentChildren {
  const v = valueAt(row, c.key);
  if (v === null || v === undefined || v === '') return c.format === 'money' ? '' : '—';
  let shown: ComponentChildren;
  switch (c.format) {
    case 'status':
      shown = <StatusBadge status={String(v)} />;
      break;
    case 'money':
      shown = money(v as number, String(row.currency ?? currency));
      break;
    case 'list':
      shown = Array.isArray(v) ? v.map(String).join(', ') : String(v);
      break;
    case 'yesno':
      shown = v ? 'Yes' : 'No';
      break;
    default:
      shown = typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  // only links inside the admin area: a declaration cannot send the user elsewhere
  return c.link && c.link.startsWith('/wp-admin/') ? <a href={fill(c.link, row)}>{shown}</a> : shown;
}

const columnsOf = (specs: ColumnSpec[], currency: string): Column<Row>[] =>
  specs.map((c) => ({ label: c.label, num: c.format === 'money', cell: (row) => cellOf(c, row, currency) }));

function shows(a: ActionSpec, row: Row): boolean {
  return Object.entries(a.when ?? {}).every(([k, values]) => values.includes(valueAt(row, k)));
}

/** The screen of a plugin's `resourceScreen` declaration: its list, row buttons, create form and details. */
export function ResourceScreen({ props }: { props: Props & { resource: ResourceSpec } }) {
  const spec = props.resource;
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<Row> | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [reveal, setReveal] = useState<{ label: string; value: string } | null>(null);
  const [reload, setReload] = useState(0);
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<{ row: Row; action: ActionSpec } | null>(null);
  const [details, setDetails] = useState<Row | null>(null);
  const [busy, setBusy] = useState('');
  useEffect(() => {
    restPage<Row>(spec.list.route, { page, per_page: spec.list.perPage ?? 20 }).then(setData, (e: ApiError) =>
      setNotice({ kind: 'error', text: e.message }),
    );
  }, [page, reload]);
  const label = (row: Row) => fill(spec.list.rowLabel, row);

  async function call(a: ActionSpec, row: Row, values?: Record<string, unknown>) {
    if (a.confirm && !confirm(fill(a.confirm, row))) return;
    setBusy(`${a.label}…`);
    setNotice(null);
    try {
      const body = a.body || values ? { ...a.body, ...values } : undefined;
      const { data: answer } = await rest<Row>(path(a.route, row), { method: a.method, body });
      setNotice({ kind: 'ok', text: fill(a.done, answer, row) });
      setOpen(null);
      setReload((n) => n + 1);
    } catch (e) {
      if (values) throw e; // the form shows it next to its fields
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy('');
    }
  }

  const columns: Column<Row>[] = columnsOf(spec.list.columns, props.currency);
  if (spec.actions.length || spec.details)
    columns.push({
      label: 'Actions',
      cell: (row) => (
        <div class="billing-row-actions">
          {spec.actions
            .filter((a) => shows(a, row))
            .map((a) => (
              <button
                type="button"
                aria-label={`${a.label} ${label(row)}`}
                disabled={!!busy}
                aria-expanded={a.fields ? open?.row === row && open.action === a : undefined}
                onClick={() => (a.fields ? setOpen(open?.row === row && open.action === a ? null : { row, action: a }) : call(a, row))}
              >
                {a.label}
              </button>
            ))}
          {spec.details && (
            <button
              type="button"
              aria-label={`${spec.details.label} of ${label(row)}`}
              aria-expanded={details === row}
              onClick={() => setDetails(details === row ? null : row)}
            >
              {spec.details.label}
            </button>
          )}
        </div>
      ),
    });

  return (
    <div class="billing-resource">
      {props.resource.description && <p class="billing-sub">{props.resource.description}</p>}
      {spec.create && (
        <div class="billing-toolbar">
          <button type="button" class="button-primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            {spec.create.label}
          </button>
        </div>
      )}
      {busy && <Busy text={busy} />}
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {reveal && (
        <div class="billing-panel billing-reveal" role="status">
          <p>
            <strong>{reveal.label}</strong>
          </p>
          <code>{reveal.value}</code>
          <p>
            <button type="button" onClick={() => setReveal(null)}>
              I have copied it
            </button>
          </p>
        </div>
      )}
      {creating && spec.create && (
        <SchemaForm
          title={spec.create.label}
          idPrefix="new"
          fields={spec.create.fields}
          submit={spec.create.submit}
          onCancel={() => setCreating(false)}
          onSubmit={async (values) => {
            const c = spec.create!;
            const { data: made } = await rest<Row>(c.route, { method: 'POST', body: values });
            setNotice({ kind: 'ok', text: fill(c.done, made, values) });
            setReveal(c.reveal && made[c.reveal.key] ? { label: c.reveal.label, value: String(made[c.reveal.key]) } : null);
            setCreating(false);
            setReload((n) => n + 1);
          }}
        />
      )}
      {open && (
        <SchemaForm
          title={`${open.action.label} ${label(open.row)}`}
          idPrefix="row"
          fields={open.action.fields!.map((f) => ({ ...f, default: valueAt(open.row, f.key) ?? f.default }))}
          submit={open.action.submit ?? open.action.label}
          onCancel={() => setOpen(null)}
          onSubmit={(values) => call(open.action, open.row, values)}
        />
      )}
      <DataTable
        data={data}
        columns={columns}
        empty={spec.list.empty}
        page={page}
        onPage={setPage}
        error={notice?.kind === 'error' ? notice.text : ''}
      />
      {details && spec.details && (
        <Details spec={spec.details} row={details} title={`${spec.details.label} of ${label(details)}`} currency={props.currency} />
      )}
    </div>
  );
}

function Details({
  spec,
  row,
  title,
  currency,
}: {
  spec: NonNullable<ResourceSpec['details']>;
  row: Row;
  title: string;
  currency: string;
}) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<Row> | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setData(null);
    restPage<Row>(path(spec.route, row), { page, per_page: 20 }).then(setData, (e: ApiError) => setError(e.message));
  }, [row, page]);
  return (
    <section class="billing-panel" aria-label={title}>
      <h2>{title}</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <DataTable data={data} columns={columnsOf(spec.columns, currency)} empty={spec.empty} page={page} onPage={setPage} error={error} />
    </section>
  );
}

/** The hits of a field's search action for what is typed, as the options of its box's datalist. */
function Suggestions({ id, spec, term }: { id: string; spec: FieldSuggestions; term: string }) {
  const [hits, setHits] = useState<Row[]>([]);
  useEffect(() => {
    const t = setTimeout(() => {
      ajax<Row[]>(spec.action, { term }).then(setHits, () => setHits([]));
    }, 200);
    return () => clearTimeout(t);
  }, [term]);
  return (
    <datalist id={id}>
      {hits.map((h) => (
        <option value={fill(spec.value, h)} label={fill(spec.label, h)} />
      ))}
    </datalist>
  );
}

/** A form drawn from ajv schemas (the fields the server made of them); the server's errors shown next to each field. */
export function SchemaForm(p: {
  title: string;
  idPrefix: string;
  fields: FieldSpec[];
  submit: string;
  onSubmit: (values: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
}) {
  const initial = () =>
    Object.fromEntries(p.fields.map((f) => [f.key, f.default ?? (f.input === 'checkboxes' ? [] : f.input === 'checkbox' ? false : '')]));
  const [values, setValues] = useState<Record<string, unknown>>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (k: string, v: unknown) => setValues({ ...values, [k]: v });
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setError('');
    // empty boxes are left out (the route's default applies); numbers are sent as numbers
    const out: Record<string, unknown> = {};
    for (const f of p.fields) {
      const v = values[f.key];
      if (v === '' || v === undefined) continue;
      out[f.key] = f.input === 'number' && typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
    }
    try {
      await p.onSubmit(out);
    } catch (err) {
      const params = err instanceof ApiError ? err.params : {};
      setErrors(params);
      // what the server said of parameters the form has no field for is said at the top, in its words
      const elsewhere = Object.entries(params)
        .filter(([k]) => !p.fields.some((f) => f.key === k))
        .map(([, m]) => m);
      setError([err instanceof Error ? err.message : String(err), ...elsewhere].join(' '));
    } finally {
      setBusy(false);
    }
  }
  const id = (f: FieldSpec) => `${p.idPrefix}-${f.key}`;
  return (
    <form class="billing-panel" aria-label={p.title} onSubmit={submit} noValidate>
      <h2>{p.title}</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <div class="billing-grid">
        {p.fields.map((f) => {
          const err = errors[f.key];
          if (f.input === 'checkbox')
            return (
              <div class={`billing-field${err ? ' has-error' : ''}`}>
                <label class="billing-check">
                  <input
                    id={id(f)}
                    type="checkbox"
                    checked={Boolean(values[f.key])}
                    onChange={(e) => set(f.key, (e.target as HTMLInputElement).checked)}
                  />{' '}
                  {f.label}
                </label>
                <FieldNotes hint={f.description} error={err} />
              </div>
            );
          if (f.input === 'checkboxes') {
            const chosen = (values[f.key] as string[]) ?? [];
            return (
              <fieldset class={`billing-field billing-choices${err ? ' has-error' : ''}`}>
                <legend>{f.label}</legend>
                {f.choices!.map((c) => (
                  <label class="billing-check">
                    <input
                      type="checkbox"
                      checked={chosen.includes(c)}
                      onChange={(e) => set(f.key, (e.target as HTMLInputElement).checked ? [...chosen, c] : chosen.filter((x) => x !== c))}
                    />{' '}
                    {c}
                  </label>
                ))}
                <FieldNotes hint={f.description} error={err} />
              </fieldset>
            );
          }
          return (
            <Field id={id(f)} label={f.label} hint={f.description} error={err}>
              {f.input === 'select' ? (
                <select id={id(f)} value={String(values[f.key] ?? '')} onChange={(e) => set(f.key, (e.target as HTMLSelectElement).value)}>
                  {!f.required && <option value="">—</option>}
                  {f.required && !values[f.key] && <option value="">Choose…</option>}
                  {f.choices!.map((c) => (
                    <option value={c}>{words(c)}</option>
                  ))}
                </select>
              ) : (
                <input
                  id={id(f)}
                  type={f.input === 'number' ? 'number' : 'text'}
                  inputMode={f.input === 'number' ? 'numeric' : undefined}
                  required={f.required}
                  autocomplete={f.suggest ? 'off' : undefined}
                  list={f.suggest ? `${id(f)}-suggestions` : undefined}
                  aria-invalid={err ? true : undefined}
                  aria-describedby={err ? `${id(f)}-error` : undefined}
                  value={String(values[f.key] ?? '')}
                  onInput={(e) => set(f.key, (e.target as HTMLInputElement).value)}
                />
              )}
              {f.suggest && <Suggestions id={`${id(f)}-suggestions`} spec={f.suggest} term={String(values[f.key] ?? '')} />}
            </Field>
          );
        })}
      </div>
      <button type="submit" class="button-primary" disabled={busy}>
        {busy ? 'Saving…' : p.submit}
      </button>{' '}
      <button type="button" onClick={p.onCancel}>
        Cancel
      </button>
    </form>
  );
}

interface UploadSpec {
  description?: string;
  route: string;
  label: string;
  accept: string;
  types: Record<string, string>;
  submit: string;
  heading: string;
  sections: Array<{ title: string; facts?: ColumnSpec[]; table?: { key: string; columns: ColumnSpec[] } }>;
}

/** The screen of a plugin's `uploadScreen`: one file posted as the raw body, the answer shown as declared. */
export function UploadScreen({ props }: { props: Props & { upload: UploadSpec } }) {
  const spec = props.upload;
  const [result, setResult] = useState<Row | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function submit(e: Event) {
    e.preventDefault();
    const file = (e.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>('input[type=file]')!.files?.[0];
    setError('');
    setResult(null);
    if (!file) return setError('Choose a file first.');
    const ending = Object.keys(spec.types).find((t) => file.name.toLowerCase().endsWith(t));
    const type = file.type && Object.values(spec.types).includes(file.type) ? file.type : ending ? spec.types[ending]! : file.type;
    setBusy(true);
    try {
      setResult((await rest<Row>(spec.route, { method: 'POST', file: { bytes: file, type: type || 'application/octet-stream' } })).data);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  const currency = String(result?.currency ?? props.currency);
  return (
    <div class="billing-upload">
      {spec.description && <p class="billing-sub">{spec.description}</p>}
      <form class="billing-panel" onSubmit={submit} aria-label={spec.submit}>
        <Field id="upload-file" label={spec.label} error={error}>
          <input id="upload-file" type="file" accept={spec.accept} />
        </Field>
        <button type="submit" class="button-primary" disabled={busy}>
          {spec.submit}
        </button>
      </form>
      {busy && <Busy text="Reading…" />}
      {result && (
        <section aria-label="What the file says">
          <h2>{fill(spec.heading, result)}</h2>
          <div class="billing-read">
            {spec.sections.map((s) =>
              s.facts ? (
                <section class="billing-card" aria-label={s.title}>
                  <h3>{s.title}</h3>
                  <dl class="billing-facts">
                    {s.facts.map((f) => (
                      <>
                        <dt>{f.label}</dt>
                        <dd>{cellOf(f, { ...result, currency }, currency)}</dd>
                      </>
                    ))}
                  </dl>
                </section>
              ) : null,
            )}
          </div>
          {spec.sections
            .filter((s) => s.table)
            .map((s) => {
              const rows = (valueAt(result, s.table!.key) as Row[] | undefined) ?? [];
              return (
                <section aria-label={s.title}>
                  <h3>{s.title}</h3>
                  <DataTable
                    data={{ items: rows.map((r) => ({ ...r, currency })), total: rows.length, pages: 1 }}
                    columns={columnsOf(s.table!.columns, currency)}
                    empty="None."
                    caption={s.title}
                  />
                </section>
              );
            })}
        </section>
      )}
    </div>
  );
}
