import type { ComponentChildren } from 'preact';
import type { Page } from './api.ts';
import { formatMoney } from '../../display/format.ts';

export interface Props {
  screen: string;
  caps: string[];
  currency: string;
  query: Record<string, string>;
}

export const money = (amount: number | string | null | undefined, currency: string): string =>
  amount === null || amount === undefined ? '' : formatMoney(String(amount), currency);

export function can(props: Props, cap: string): boolean {
  return props.caps.includes(cap);
}

/** A message read out by screen readers: `alert` for failures, `status` for the rest. */
export function Notice({ kind, children }: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`billing-notice billing-notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Field(p: { id: string; label: string; error?: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class={`billing-field${p.error ? ' has-error' : ''}`}>
      <label for={p.id}>{p.label}</label>
      {p.children}
      <FieldNotes id={p.id} hint={p.hint} error={p.error} />
    </div>
  );
}

/** A field's hint and its error from the server, under it (the error found by `<id>-error`). */
export function FieldNotes(p: { id?: string; hint?: string; error?: string }) {
  return (
    <>
      {p.hint && <small class="billing-hint">{p.hint}</small>}
      {p.error && (
        <small class="billing-field-error" id={p.id ? `${p.id}-error` : undefined} role="alert">
          {p.error}
        </small>
      )}
    </>
  );
}

export function Pager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (p: number) => void }) {
  if (pages <= 1) return <p class="billing-count">{total === 1 ? '1 item' : `${total} items`}</p>;
  return (
    <div role="navigation" class="billing-pager" aria-label="Pages">
      <span>
        {total} items · page {page} of {pages}
      </span>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </div>
  );
}

/** A list's status filter: "All statuses", then each status. */
export function StatusFilter(p: { id: string; statuses: readonly string[]; value: string; onChange: (status: string) => void }) {
  return (
    <>
      <label for={p.id}>Status</label>
      <select id={p.id} value={p.value} onChange={(e) => p.onChange((e.target as HTMLSelectElement).value)}>
        <option value="">All statuses</option>
        {p.statuses.map((s) => (
          <option value={s}>{s}</option>
        ))}
      </select>
    </>
  );
}

export function StatusBadge({ status, overdue }: { status: string; overdue?: boolean }) {
  return (
    <span class={`billing-status billing-status-${status}`}>
      {status}
      {overdue ? ' · overdue' : ''}
    </span>
  );
}

/** Shown for anything that takes a while (bulk sends, PDFs). */
export function Busy({ text }: { text: string }) {
  return (
    <p class="billing-busy" role="status">
      <span class="billing-spinner" aria-hidden="true"></span> {text}
    </p>
  );
}

/** One column of a list: its heading (or a whole heading cell, for sorting and select-all) and its cell. */
export interface Column<T> {
  label: string;
  /** Replaces the `<th>` (a sort button, a select-all box). */
  head?: ComponentChildren;
  cell: (row: T) => ComponentChildren;
  /** Right-aligned figures. */
  num?: boolean;
}

/**
 * Every list of the app: a loading line, the empty state (what to do next), the table and its pager.
 * `data` null while loading; `empty` is shown when there are no rows.
 */
export function DataTable<T>(p: {
  data: Page<T> | null;
  columns: Array<Column<T> | false>;
  empty: ComponentChildren;
  caption?: string;
  error?: string;
  page?: number;
  onPage?: (page: number) => void;
}) {
  const columns = p.columns.filter((c): c is Column<T> => c !== false);
  if (!p.data) return p.error ? null : <Busy text="Loading…" />;
  return (
    <>
      {p.data.items.length === 0 ? (
        <div class="billing-empty">{typeof p.empty === 'string' ? <p>{p.empty}</p> : p.empty}</div>
      ) : (
        <div class="billing-table-wrap">
          <table class="billing-table">
            {p.caption && <caption class="screen-reader-text">{p.caption}</caption>}
            <thead>
              <tr>
                {columns.map(
                  (c) =>
                    c.head ?? (
                      <th scope="col" class={c.num ? 'num' : undefined}>
                        {c.label}
                      </th>
                    ),
                )}
              </tr>
            </thead>
            <tbody>
              {p.data.items.map((row) => (
                <tr>
                  {columns.map((c) => (
                    <td class={c.num ? 'num' : undefined} data-label={c.label}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* the empty state says it all: no "0 items" under it */}
      {p.onPage && p.data.items.length > 0 && <Pager page={p.page ?? 1} pages={p.data.pages} total={p.data.total} onPage={p.onPage} />}
    </>
  );
}

/** `key` of `row`, with dots for nested values (`template.customer_name`). */
export function valueAt(row: unknown, key: string): unknown {
  let v: any = row;
  for (const part of key.split('.')) v = v === null || v === undefined ? undefined : v[part];
  return v;
}

/** `{key}` in `template` replaced by the values of the first source that has them. */
export function fill(template: string, ...sources: unknown[]): string {
  return template.replace(/\{([\w.]+)\}/g, (_m, key: string) => {
    for (const s of sources) {
      const v = valueAt(s, key);
      if (v !== undefined && v !== null) return String(v);
    }
    return '';
  });
}
