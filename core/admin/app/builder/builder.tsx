import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError, rest } from '../api.ts';
import { customerEmail, openPdf, type Doc, type Kind } from '../documents.ts';
import { Busy, can, Field, Notice, StatusBadge, type Props } from '../ui.tsx';
import { CustomerPicker } from './customer-picker.tsx';
import { Downloads, type DocumentLink } from './downloads.tsx';
import { blankState, fieldErrors, fromDoc, toInput, type State } from './draft.ts';
import type { ItemSource } from '../../wire.ts';
import { ItemRows } from './items.tsx';
import { CreditPanel, PaymentPanel } from './panels.tsx';
import { usePreview } from './preview.ts';
import { ScheduleRows } from './schedule.tsx';
import { Totals } from './totals.tsx';

/** The invoice and quote builder: one component, the document kind decides the rest. */
export function Builder({ props, kind }: { props: Props & { links?: DocumentLink[]; itemSources?: ItemSource[] }; kind: Kind }) {
  const id = Number(props.query.id) || null;
  const [doc, setDoc] = useState<Doc | null>(null);
  const [s, setS] = useState<State>(() => blankState(props.currency));
  const [dirty, setDirty] = useState(false);
  const [loading, setLoading] = useState(Boolean(id));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState('');
  const [panel, setPanel] = useState<'' | 'payment' | 'credit'>('');
  const Kind = kind === 'invoice' ? 'Invoice' : 'Quote';
  const draft = !doc || doc.status === 'draft';
  const editable = draft && can(props, doc ? `bill_edit_${kind}` : `bill_create_${kind}`);

  useEffect(() => {
    if (!id) return;
    rest<Doc>(`/${kind}s/${id}`)
      .then(({ data }) => {
        setDoc(data);
        setS(fromDoc(data, kind));
      })
      .catch((e: ApiError) => setNotice({ kind: 'error', text: e.message }))
      .finally(() => setLoading(false));
  }, []);

  useEffect(() => {
    const title = doc ? `${Kind} ${doc.number}` : `New ${kind}`;
    const h1 = document.querySelector('main h1');
    if (h1) h1.textContent = title;
    document.title = document.title.replace(/^[^‹]*/, `${title} `);
  }, [doc?.number]);

  // unsaved changes are not lost by an accidental navigation
  useEffect(() => {
    const guard = (e: BeforeUnloadEvent) => {
      if (!dirty) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [dirty]);

  const { preview, previewError } = usePreview(s, kind, loading);

  const set = (patch: Partial<State>) => {
    setS({ ...s, ...patch });
    setDirty(true);
  };
  async function save(status?: 'available'): Promise<Doc | null> {
    setErrors({});
    setNotice(null);
    try {
      const input = toInput(s, kind);
      if (status) input.status = status;
      const saved = await ajax<Doc>(`billing_save_${kind}`, { id: doc?.id, [kind]: JSON.stringify(input) });
      setDoc(saved);
      setS(fromDoc(saved, kind));
      setDirty(false);
      if (!doc) history.replaceState(null, '', `/wp-admin/${kind}.php?id=${saved.id}`);
      return saved;
    } catch (e) {
      setErrors(fieldErrors(e));
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
      return null;
    }
  }

  async function run(label: string, work: () => Promise<string | null>) {
    setBusy(label);
    try {
      const text = await work();
      if (text) setNotice({ kind: 'ok', text });
    } catch (e) {
      setErrors(fieldErrors(e));
      setNotice({ kind: 'error', text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy('');
    }
  }

  const onSave = () => run('Saving…', async () => ((await save()) ? `${Kind} saved.` : null));
  const onSend = () =>
    run('Sending…', async () => {
      const saved = dirty || !doc ? await save() : doc;
      if (!saved) return null;
      await ajax(`billing_send_${kind}_email`, { id: saved.id });
      const { data } = await rest<Doc>(`/${kind}s/${saved.id}`);
      setDoc(data);
      return `${Kind} ${data.number} sent to ${customerEmail(data)}.`;
    });
  const onPdf = () =>
    run('Making the PDF…', async () => {
      const saved = dirty || !doc ? await save() : doc;
      if (!saved) return null;
      await openPdf(kind, saved.id);
      return null;
    });
  const reload = async (text: string) => {
    const { data } = await rest<Doc>(`/${kind}s/${doc!.id}`);
    setDoc(data);
    setS(fromDoc(data, kind));
    setDirty(false);
    setPanel('');
    return text;
  };

  if (loading) return <Busy text="Loading…" />;
  const cur = preview?.currency ?? doc?.currency ?? s.currency;
  const e = (k: string) => errors[k];

  return (
    <form
      class="billing-builder"
      noValidate
      onSubmit={(ev) => {
        ev.preventDefault();
        onSave();
      }}
    >
      {doc && (
        <p class="billing-doc-head">
          <strong>{doc.number}</strong> <StatusBadge status={doc.status} overdue={doc.overdue} />
          {dirty && <span class="billing-dirty"> · unsaved changes</span>}
        </p>
      )}
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {busy && <Busy text={busy} />}
      <fieldset disabled={!editable}>
        <legend>Customer</legend>
        {can(props, 'bill_view_clients') && (
          <CustomerPicker
            label={s.client_label}
            clientId={s.client_id}
            onType={(term) => set({ client_label: term })}
            onChoose={(c) => set({ client_id: c.id, client_label: c.name, customer_name: c.name, customer_email: c.email })}
          />
        )}
        <div class="billing-grid">
          <Field id="b-customer_name" label="Customer name" error={e('customer_name')}>
            <input
              id="b-customer_name"
              value={s.customer_name}
              onInput={(ev) => set({ customer_name: (ev.target as HTMLInputElement).value })}
            />
          </Field>
          <Field id="b-customer_email" label="Customer e-mail" error={e('customer_email')}>
            <input
              id="b-customer_email"
              type="email"
              value={s.customer_email}
              onInput={(ev) => set({ customer_email: (ev.target as HTMLInputElement).value })}
            />
          </Field>
        </div>
      </fieldset>
      <fieldset disabled={!editable}>
        <legend>{Kind}</legend>
        <div class="billing-grid">
          <Field id="b-title" label="Title" error={e('title')}>
            <input id="b-title" value={s.title} onInput={(ev) => set({ title: (ev.target as HTMLInputElement).value })} />
          </Field>
          <Field id="b-issue_date" label="Issue date" error={e('issue_date')}>
            <input
              id="b-issue_date"
              type="date"
              value={s.issue_date}
              onInput={(ev) => set({ issue_date: (ev.target as HTMLInputElement).value })}
            />
          </Field>
          <Field
            id="b-due_date"
            label={kind === 'invoice' ? 'Due date' : 'Expiry date'}
            error={e(kind === 'invoice' ? 'due_date' : 'expiry_date')}
          >
            <input
              id="b-due_date"
              type="date"
              value={s.due_date}
              onInput={(ev) => set({ due_date: (ev.target as HTMLInputElement).value })}
            />
          </Field>
          {kind === 'invoice' && (
            <>
              <Field id="b-period_start" label="Service period from" error={e('period_start')}>
                <input
                  id="b-period_start"
                  type="date"
                  value={s.period_start}
                  onInput={(ev) => set({ period_start: (ev.target as HTMLInputElement).value })}
                />
              </Field>
              <Field id="b-period_end" label="Service period to" error={e('period_end')}>
                <input
                  id="b-period_end"
                  type="date"
                  value={s.period_end}
                  onInput={(ev) => set({ period_end: (ev.target as HTMLInputElement).value })}
                />
              </Field>
            </>
          )}
          <Field id="b-currency" label="Currency" error={e('currency')}>
            <input
              id="b-currency"
              value={s.currency}
              maxLength={3}
              size={4}
              autocapitalize="characters"
              onInput={(ev) => set({ currency: (ev.target as HTMLInputElement).value })}
            />
          </Field>
        </div>
      </fieldset>
      <ItemRows
        items={s.items}
        editable={editable}
        preview={preview}
        cur={cur}
        currency={s.currency}
        sources={props.itemSources ?? []}
        errors={errors}
        onChange={(items) => set({ items })}
      />
      {kind === 'invoice' && (
        <ScheduleRows rows={s.schedule} editable={editable} error={e('schedule')} onChange={(schedule) => set({ schedule })} />
      )}
      <fieldset disabled={!editable}>
        <legend>Discount, notes and terms</legend>
        <div class="billing-grid">
          <Field id="b-discount_type" label="Discount type">
            <select
              id="b-discount_type"
              value={s.discount_type}
              onChange={(ev) => set({ discount_type: (ev.target as HTMLSelectElement).value as State['discount_type'] })}
            >
              <option value="">No discount</option>
              <option value="percent">Percent of subtotal</option>
              <option value="fixed">Fixed amount</option>
            </select>
          </Field>
          <Field id="b-discount_value" label="Discount" error={e('discount')}>
            <input
              id="b-discount_value"
              inputMode="decimal"
              value={s.discount_value}
              disabled={!s.discount_type}
              onInput={(ev) => set({ discount_value: (ev.target as HTMLInputElement).value })}
            />
          </Field>
        </div>
        <Field id="b-terms" label="Terms" error={e('terms')}>
          <textarea id="b-terms" rows={2} value={s.terms} onInput={(ev) => set({ terms: (ev.target as HTMLTextAreaElement).value })} />
        </Field>
      </fieldset>
      <Field id="b-notes" label="Notes" error={e('notes')}>
        <textarea
          id="b-notes"
          rows={2}
          value={s.notes}
          disabled={!can(props, doc ? `bill_edit_${kind}` : `bill_create_${kind}`)}
          onInput={(ev) => set({ notes: (ev.target as HTMLTextAreaElement).value })}
        />
      </Field>
      <Totals preview={preview} previewError={previewError} cur={cur} doc={doc} kind={kind} />
      <div class="billing-actions">
        {can(props, doc ? `bill_edit_${kind}` : `bill_create_${kind}`) && (draft || dirty) && (
          <button type="submit" class="button-primary" disabled={!!busy}>
            Save
          </button>
        )}
        {can(props, `bill_send_${kind}`) && (doc ? !['cancelled', 'paid'].includes(doc.status) : can(props, `bill_create_${kind}`)) && (
          <button type="button" disabled={!!busy} onClick={onSend}>
            Send
          </button>
        )}
        {(doc || can(props, `bill_create_${kind}`)) && (
          <button type="button" disabled={!!busy} onClick={onPdf}>
            Preview PDF
          </button>
        )}
        {kind === 'invoice' && doc && !draft && (
          <>
            {can(props, 'bill_record_payment') && Number(doc.totals.due) > 0 && doc.status !== 'cancelled' && (
              <button type="button" aria-expanded={panel === 'payment'} onClick={() => setPanel(panel === 'payment' ? '' : 'payment')}>
                Record payment
              </button>
            )}
            {can(props, 'bill_edit_invoice') && doc.status !== 'cancelled' && (
              <button type="button" aria-expanded={panel === 'credit'} onClick={() => setPanel(panel === 'credit' ? '' : 'credit')}>
                Credit note
              </button>
            )}
            {can(props, 'bill_edit_invoice') && Number(doc.totals.paid) === 0 && doc.status !== 'cancelled' && (
              <button
                type="button"
                onClick={() => {
                  if (confirm(`Cancel ${doc.number}? Its pending payments are cancelled with it.`))
                    run('Cancelling…', async () => {
                      await ajax('billing_cancel_invoice', { id: doc.id });
                      return reload(`${doc.number} is cancelled.`);
                    });
                }}
              >
                Cancel invoice
              </button>
            )}
          </>
        )}
        {kind === 'invoice' && doc && can(props, 'bill_create_invoice') && (
          <button
            type="button"
            onClick={() =>
              run('Duplicating…', async () => {
                const copy = await ajax<Doc>('billing_duplicate_invoice', { id: doc.id });
                location.assign(`/wp-admin/invoice.php?id=${copy.id}`);
                return null;
              })
            }
          >
            Duplicate
          </button>
        )}
      </div>
      {doc && props.links && <Downloads doc={doc} links={props.links} />}
      {panel === 'payment' && doc && <PaymentPanel doc={doc} busy={!!busy} run={run} reload={reload} errors={errors} />}
      {panel === 'credit' && doc && <CreditPanel doc={doc} busy={!!busy} run={run} reload={reload} errors={errors} />}
    </form>
  );
}
