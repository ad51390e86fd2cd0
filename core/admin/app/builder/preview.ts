import { useEffect, useRef, useState } from 'preact/hooks';
import { ajax, ApiError } from '../api.ts';
import type { Kind } from '../documents.ts';
import { toInput, type State } from './draft.ts';

/** What billing_preview_invoice / billing_preview_quote answer: the draft's amounts as they would be saved. */
export interface Preview {
  currency: string;
  items: { amount: number }[];
  totals: { subtotal: number; discount: number; tax: number; total: number };
  tax_statement: string;
}

/**
 * Live totals: the server computes them with the code that saves them, a moment after each change; an
 * answer to an older draft than the last one asked about is dropped.
 */
export function usePreview(s: State, kind: Kind, loading: boolean): { preview: Preview | null; previewError: string } {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState('');
  const seq = useRef(0);
  useEffect(() => {
    if (loading) return;
    const n = ++seq.current;
    const input = toInput(s, kind, true);
    if (!(input.items as unknown[]).length) {
      setPreview(null);
      return;
    }
    const t = setTimeout(() => {
      ajax<Preview>(`billing_preview_${kind}`, { [kind]: JSON.stringify(input) })
        .then((p) => {
          if (n !== seq.current) return;
          setPreview(p);
          setPreviewError('');
        })
        .catch((e: ApiError) => {
          if (n !== seq.current) return;
          setPreviewError(e.message);
        });
    }, 200);
    return () => clearTimeout(t);
  }, [s, loading]);
  return { preview, previewError };
}
