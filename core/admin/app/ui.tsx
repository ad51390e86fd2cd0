import type { ComponentChildren } from 'preact';
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
      {p.hint && <small class="billing-hint">{p.hint}</small>}
      {p.error && (
        <small class="billing-field-error" id={`${p.id}-error`} role="alert">
          {p.error}
        </small>
      )}
    </div>
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
