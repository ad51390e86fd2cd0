import { useEffect, useState } from 'preact/hooks';
import { ApiError, rest } from '../api.ts';
import type { PaymentMethod } from '../rest-types.ts';
import { Notice } from '../ui.tsx';

/**
 * A client's saved cards and mandates (the ones autopay charges), each with a Remove button: removing
 * one means it is never charged again. Saved only by the customer paying with "Save for future
 * invoices"; nothing here can add one.
 */
export function SavedMethods({ clientId, name }: { clientId: number; name: string }) {
  const [methods, setMethods] = useState<PaymentMethod[] | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    rest<PaymentMethod[]>(`/clients/${clientId}/payment-methods`).then(
      (r) => setMethods(r.data),
      (e: ApiError) => setNotice({ kind: 'error', text: e.message }),
    );
  }, [clientId, reload]);
  async function remove(m: PaymentMethod) {
    try {
      await rest(`/clients/${clientId}/payment-methods/${m.id}`, { method: 'DELETE' });
      setNotice({ kind: 'ok', text: `${m.label} removed: it will not be charged again.` });
      setReload(reload + 1);
    } catch (err) {
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  }
  return (
    <section aria-label={`Saved payment methods of ${name}`}>
      <h3>Saved payment methods</h3>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {methods && !methods.length && (
        <p class="billing-sub">None. A customer saves one by paying an invoice with "Save for future invoices".</p>
      )}
      {methods && methods.length > 0 && (
        <ul>
          {methods.map((m) => (
            <li>
              {m.label}{' '}
              <span class="billing-sub">
                ({m.gateway}, saved {m.created})
              </span>{' '}
              <button type="button" onClick={() => remove(m)}>
                Remove {m.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
