import { useEffect, useState } from 'preact/hooks';
import { ApiError, rest } from '../api.ts';
import { Notice } from '../ui.tsx';

interface StatementSummary {
  currency: string;
  from: string;
  to: string;
  closing_balance: number;
  lines: unknown[];
}

/**
 * A client's statement of account (docs/payments.md): the closing balance of this year so far in one of
 * the client's currencies, the PDF to download, and a button that mails it to the client.
 */
export function Statement({ clientId, name, currencies }: { clientId: number; name: string; currencies: string[] }) {
  const [currency, setCurrency] = useState(currencies[0] ?? '');
  const [summary, setSummary] = useState<StatementSummary | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const query = currency ? `?currency=${encodeURIComponent(currency)}` : '';
  useEffect(() => {
    rest<StatementSummary>(`/clients/${clientId}/statement${query}`).then(
      (r) => setSummary(r.data),
      (e: ApiError) => setNotice({ kind: 'error', text: e.message }),
    );
  }, [clientId, query]);

  async function download() {
    setNotice(null);
    const meta = (n: string) => document.querySelector<HTMLMetaElement>(`meta[name="${n}"]`)?.content ?? '';
    const root = meta('billing-rest-root').replace(/^https?:\/\/[^/]+/, '') || '/wp-json/';
    const res = await fetch(`${root}billing/v1/clients/${clientId}/statement/pdf${query}`, {
      credentials: 'same-origin',
      headers: { 'X-WP-Nonce': meta('billing-rest-nonce') },
    });
    if (!res.ok) return setNotice({ kind: 'error', text: `The statement could not be made (HTTP ${res.status}).` });
    const file = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'statement.pdf';
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = file;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  async function send() {
    try {
      const r = await rest<{ to: string }>(`/clients/${clientId}/statement/send${query}`, { method: 'POST', body: {} });
      setNotice({ kind: 'ok', text: `Statement sent to ${r.data.to}.` });
    } catch (err) {
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  }

  return (
    <section aria-label={`Statement of ${name}`}>
      <h3>Statement</h3>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {currencies.length > 1 && (
        <label>
          Currency{' '}
          <select value={currency} onChange={(e) => setCurrency((e.target as HTMLSelectElement).value)}>
            {currencies.map((c) => (
              <option value={c}>{c}</option>
            ))}
          </select>
        </label>
      )}
      {summary && (
        <p>
          Closing balance on {summary.to}: {summary.closing_balance} {summary.currency} ({summary.lines.length} entries since {summary.from}
          )
        </p>
      )}
      <button type="button" onClick={download}>
        Download statement (PDF)
      </button>{' '}
      <button type="button" onClick={send}>
        Send statement
      </button>
    </section>
  );
}
