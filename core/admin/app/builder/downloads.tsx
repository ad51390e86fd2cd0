import { useState } from 'preact/hooks';
import type { Doc } from '../documents.ts';
import { Busy, Notice } from '../ui.tsx';

export interface DocumentLink {
  label: string;
  path: string;
  statuses?: string[];
}

/**
 * The downloads the active plugins offer for `doc`: real links (with the page's REST nonce, WordPress's
 * `_wpnonce`), fetched on a click so that a refusal (an e-invoice whose data is incomplete: 409 with every
 * missing field) is said in words here instead of being saved as a file.
 */
export function Downloads({ doc, links }: { doc: Doc; links: DocumentLink[] }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState('');
  const shown = links.filter((l) => !l.statuses || l.statuses.includes(doc.status));
  if (!shown.length) return null;
  const meta = (n: string) => document.querySelector<HTMLMetaElement>(`meta[name="${n}"]`)?.content ?? '';
  const root = meta('billing-rest-root').replace(/^https?:\/\/[^/]+/, '') || '/wp-json/';
  const nonce = encodeURIComponent(meta('billing-rest-nonce'));
  async function download(e: MouseEvent, l: DocumentLink, href: string) {
    e.preventDefault();
    setError('');
    setBusy(`Preparing ${l.label}…`);
    try {
      const res = await fetch(href, { credentials: 'same-origin' });
      if (!res.ok) {
        const body = await res.json().catch(() => null);
        throw new Error(body?.message ?? `The file could not be made (HTTP ${res.status}).`);
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? `${doc.number}`;
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy('');
    }
  }
  return (
    // not a <nav>: the shell styles those as its dark menu
    <div class="billing-downloads" role="group" aria-label="Downloads">
      <span>Download as</span>
      <ul>
        {shown.map((l) => {
          const href = `${root}billing/v1${l.path.replace('{id}', String(doc.id))}?_wpnonce=${nonce}`;
          return (
            <li>
              <a href={href} download onClick={(e) => download(e, l, href)}>
                {l.label}
              </a>
            </li>
          );
        })}
      </ul>
      {busy && <Busy text={busy} />}
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}
