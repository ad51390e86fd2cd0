import { useEffect, useRef, useState } from 'preact/hooks';
import { ajax, ApiError, rest } from './api.ts';
import { customerEmail, customerName, openPdf, type Doc, type Kind } from './documents.tsx';
import { Busy, can, Field, money, Notice, StatusBadge, type Props } from './ui.tsx';

interface Item {
  key: number;
  name: string;
  description: string;
  quantity: string;
  price: string;
  taxable: boolean;
}

interface State {
  client_id: number | null;
  client_label: string;
  customer_name: string;
  customer_email: string;
  title: string;
  issue_date: string;
  due_date: string;
  currency: string;
  items: Item[];
  discount_type: '' | 'percent' | 'fixed';
  discount_value: string;
  notes: string;
  terms: string;
}

interface Preview {
  currency: string;
  items: { amount: number }[];
  totals: { subtotal: number; discount: number; tax: number; total: number };
  tax_statement: string;
}

let nextKey = 1;
const blankItem = (): Item => ({ key: nextKey++, name: '', description: '', quantity: '1', price: '', taxable: true });

function fromDoc(d: Doc, kind: Kind): State {
  return {
    client_id: d.client_id,
    client_label: '',
    customer_name: customerName(d),
    customer_email: customerEmail(d),
    title: d.title,
    issue_date: d.issue_date,
    due_date: (kind === 'invoice' ? d.due_date : d.expiry_date) ?? '',
    currency: d.currency,
    items: d.items.map((i: any) => ({
      key: nextKey++,
      name: i.name,
      description: i.description ?? '',
      quantity: String(i.quantity),
      price: String(i.price),
      taxable: i.taxable,
    })),
    discount_type: d.discount?.type ?? '',
    discount_value: d.discount ? String(d.discount.value) : '',
    notes: d.notes ?? '',
    terms: d.terms ?? '',
  };
}

/** The builder's state as the body of POST /invoices (the shape billing_save_invoice takes). */
function toInput(s: State, kind: Kind, forPreview = false): Record<string, unknown> {
  const items = s.items
    .filter((i) => !forPreview || (i.quantity.trim() !== '' && i.price.trim() !== ''))
    .map((i) => ({
      name: forPreview && !i.name.trim() ? '—' : i.name,
      description: i.description,
      quantity: i.quantity.trim(),
      price: i.price.trim(),
      taxable: i.taxable,
    }));
  const out: Record<string, unknown> = { items, title: s.title, notes: s.notes, terms: s.terms, currency: s.currency.trim().toUpperCase() };
  if (s.client_id) out.client_id = s.client_id;
  // name and e-mail change no total: a half-typed address must not stop the live totals
  if (!forPreview && s.customer_name.trim()) out.customer_name = s.customer_name.trim();
  if (!forPreview && s.customer_email.trim()) out.customer_email = s.customer_email.trim();
  if (s.issue_date) out.issue_date = s.issue_date;
  if (s.due_date) out[kind === 'invoice' ? 'due_date' : 'expiry_date'] = s.due_date;
  if (s.discount_type && s.discount_value.trim()) out.discount = { type: s.discount_type, value: s.discount_value.trim() };
  return out;
}

/** Field errors of `rest_invalid_param` (`items[0].price`, `customer_email`, …) under the builder's field ids. */
function fieldErrors(e: unknown): Record<string, string> {
  if (!(e instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.params)) out[k.replace(/\[(\d+)\]\.?/g, '-$1-').replace(/-$/, '')] = v;
  return out;
}

/** The invoice and quote builder (contract §10): one component, the document kind decides the rest. */
/** A download a plugin offers on this screen (`billing_admin_document_links`, e.g. the e-invoice formats). */
interface DocumentLink {
  label: string;
  path: string;
  statuses?: string[];
}

/**
 * The downloads the active plugins offer for `doc`: real links (with the page's REST nonce, WordPress's
 * `_wpnonce`), fetched on a click so that a refusal (an e-invoice whose data is incomplete: 409 with every
 * missing field) is said in words here instead of being saved as a file.
 */
function Downloads({ doc, links }: { doc: Doc; links: DocumentLink[] }) {
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

export function Builder({ props, kind }: { props: Props & { links?: DocumentLink[] }; kind: Kind }) {
  const id = Number(props.query.id) || null;
  const [doc, setDoc] = useState<Doc | null>(null);
  const [s, setS] = useState<State>(() => ({
    client_id: null,
    client_label: '',
    customer_name: '',
    customer_email: '',
    title: '',
    issue_date: '',
    due_date: '',
    currency: props.currency,
    items: [blankItem()],
    discount_type: '',
    discount_value: '',
    notes: '',
    terms: '',
  }));
  const [dirty, setDirty] = useState(false);
  const [loading, setLoading] = useState(Boolean(id));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState('');
  const [clientResults, setClientResults] = useState<Array<{ id: number; name: string; email: string; company: string }>>([]);
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

  // live totals: the server computes them with the code that saves them, a moment after each change
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

  const set = (patch: Partial<State>) => {
    setS({ ...s, ...patch });
    setDirty(true);
  };
  const setItem = (i: number, patch: Partial<Item>) => set({ items: s.items.map((it, n) => (n === i ? { ...it, ...patch } : it)) });
  const move = (i: number, by: number) => {
    const items = [...s.items];
    const [it] = items.splice(i, 1);
    items.splice(i + by, 0, it!);
    set({ items });
  };

  async function searchClients(term: string) {
    set({ client_label: term });
    if (!can(props, 'bill_view_clients') || term.trim().length < 1) return setClientResults([]);
    try {
      setClientResults(await ajax('billing_search_clients', { term }));
    } catch {
      setClientResults([]);
    }
  }

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
          <div class="billing-client-pick">
            <Field
              id="b-client"
              label="Find a client"
              hint={s.client_id ? `Client #${s.client_id} chosen` : 'Type a name, e-mail or company; or fill in the customer below.'}
            >
              <input
                id="b-client"
                type="search"
                autocomplete="off"
                value={s.client_label}
                onInput={(ev) => searchClients((ev.target as HTMLInputElement).value)}
                aria-controls={clientResults.length ? 'b-client-results' : undefined}
              />
            </Field>
            {clientResults.length > 0 && (
              <ul id="b-client-results" class="billing-client-results" aria-label="Matching clients">
                {clientResults.map((c) => (
                  <li>
                    <button
                      type="button"
                      onClick={() => {
                        set({ client_id: c.id, client_label: c.name, customer_name: c.name, customer_email: c.email });
                        setClientResults([]);
                      }}
                    >
                      Choose {c.name} {c.email ? `(${c.email})` : ''}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
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
      <fieldset disabled={!editable}>
        <legend>Items</legend>
        {e('items') && <p class="billing-field-error">{e('items')}</p>}
        <ol class="billing-items">
          {s.items.map((it, i) => (
            <li class="billing-item" key={it.key}>
              <Field id={`b-items-${i}-name`} label={`Item ${i + 1} name`} error={e(`items-${i}-name`)}>
                <input
                  id={`b-items-${i}-name`}
                  value={it.name}
                  onInput={(ev) => setItem(i, { name: (ev.target as HTMLInputElement).value })}
                />
              </Field>
              <Field id={`b-items-${i}-description`} label={`Item ${i + 1} description`}>
                <input
                  id={`b-items-${i}-description`}
                  value={it.description}
                  onInput={(ev) => setItem(i, { description: (ev.target as HTMLInputElement).value })}
                />
              </Field>
              <Field id={`b-items-${i}-quantity`} label={`Item ${i + 1} quantity`} error={e(`items-${i}-quantity`)}>
                <input
                  id={`b-items-${i}-quantity`}
                  inputMode="decimal"
                  value={it.quantity}
                  onInput={(ev) => setItem(i, { quantity: (ev.target as HTMLInputElement).value })}
                />
              </Field>
              <Field id={`b-items-${i}-price`} label={`Item ${i + 1} price`} error={e(`items-${i}-price`)}>
                <input
                  id={`b-items-${i}-price`}
                  inputMode="decimal"
                  value={it.price}
                  onInput={(ev) => setItem(i, { price: (ev.target as HTMLInputElement).value })}
                />
              </Field>
              <label class="billing-check">
                <input
                  type="checkbox"
                  checked={it.taxable}
                  onChange={(ev) => setItem(i, { taxable: (ev.target as HTMLInputElement).checked })}
                />{' '}
                Taxable
              </label>
              <output class="billing-amount" aria-label={`Item ${i + 1} amount`}>
                {preview?.items[s.items.slice(0, i).filter((x) => x.quantity.trim() && x.price.trim()).length] &&
                it.quantity.trim() &&
                it.price.trim()
                  ? money(preview.items[s.items.slice(0, i).filter((x) => x.quantity.trim() && x.price.trim()).length]!.amount, cur)
                  : ''}
              </output>
              <div class="billing-item-actions">
                <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move item ${i + 1} up`}>
                  ↑
                </button>
                <button type="button" disabled={i === s.items.length - 1} onClick={() => move(i, 1)} aria-label={`Move item ${i + 1} down`}>
                  ↓
                </button>
                <button
                  type="button"
                  disabled={s.items.length === 1}
                  onClick={() => set({ items: s.items.filter((_, n) => n !== i) })}
                  aria-label={`Remove item ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ol>
        <button type="button" onClick={() => set({ items: [...s.items, blankItem()] })}>
          Add item
        </button>
      </fieldset>
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
      <section class="billing-totals" aria-label="Totals" aria-live="polite">
        {previewError && <p class="billing-field-error">{previewError}</p>}
        <dl>
          <dt>Subtotal</dt>
          <dd data-total="subtotal">{preview ? money(preview.totals.subtotal, cur) : '—'}</dd>
          <dt>Discount</dt>
          <dd data-total="discount">{preview ? money(preview.totals.discount, cur) : '—'}</dd>
          <dt>Tax</dt>
          <dd data-total="tax">{preview ? money(preview.totals.tax, cur) : '—'}</dd>
          <dt>Total</dt>
          <dd data-total="total" class="billing-grand">
            {preview ? money(preview.totals.total, cur) : '—'}
          </dd>
          {doc && doc.status !== 'draft' && kind === 'invoice' && (
            <>
              <dt>Paid</dt>
              <dd data-total="paid">{money(doc.totals.paid, doc.currency)}</dd>
              <dt>Credited</dt>
              <dd data-total="credited">{money(doc.totals.credited, doc.currency)}</dd>
              <dt>Amount due</dt>
              <dd data-total="due">{money(doc.totals.due, doc.currency)}</dd>
            </>
          )}
        </dl>
        {preview?.tax_statement && <p class="billing-sub">{preview.tax_statement}</p>}
      </section>
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

interface PanelProps {
  doc: Doc;
  busy: boolean;
  run: (label: string, work: () => Promise<string | null>) => Promise<void>;
  reload: (text: string) => Promise<string>;
  errors: Record<string, string>;
}

function PaymentPanel({ doc, busy, run, reload, errors }: PanelProps) {
  const [amount, setAmount] = useState(String(doc.totals.due));
  const [method, setMethod] = useState('bank_transfer');
  const [status, setStatus] = useState('completed');
  const [notes, setNotes] = useState('');
  return (
    <section class="billing-panel" aria-label="Record payment">
      <h2>Record a payment</h2>
      <div class="billing-grid">
        <Field id="p-amount" label={`Amount (${doc.currency})`} error={errors.amount}>
          <input id="p-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
        </Field>
        <Field id="p-method" label="Method">
          <select id="p-method" value={method} onChange={(e) => setMethod((e.target as HTMLSelectElement).value)}>
            <option value="bank_transfer">Bank transfer</option>
            <option value="cheque">Cheque</option>
            <option value="cash">Cash</option>
            <option value="manual">Other (manual)</option>
          </select>
        </Field>
        <Field id="p-status" label="Status">
          <select id="p-status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value)}>
            <option value="completed">Received</option>
            <option value="pending">Awaited</option>
          </select>
        </Field>
        <Field id="p-notes" label="Payment notes">
          <input id="p-notes" value={notes} onInput={(e) => setNotes((e.target as HTMLInputElement).value)} />
        </Field>
      </div>
      <button
        type="button"
        class="button-primary"
        disabled={busy}
        onClick={() =>
          run('Recording the payment…', async () => {
            await ajax('billing_record_payment', { invoice_id: doc.id, amount, method, status, notes });
            return reload(`Payment of ${money(amount, doc.currency)} recorded.`);
          })
        }
      >
        Save payment
      </button>
    </section>
  );
}

function CreditPanel({ doc, busy, run, reload, errors }: PanelProps) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  return (
    <section class="billing-panel" aria-label="Credit note">
      <h2>Issue a credit note</h2>
      <div class="billing-grid">
        <Field id="c-amount" label={`Credit amount (${doc.currency})`} error={errors.amount}>
          <input id="c-amount" inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
        </Field>
        <Field id="c-reason" label="Reason" error={errors.reason}>
          <input id="c-reason" value={reason} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
        </Field>
      </div>
      <button
        type="button"
        class="button-primary"
        disabled={busy}
        onClick={() =>
          run('Issuing the credit note…', async () => {
            const r = await ajax<{ credit_note: { number: string } }>('billing_create_credit_note', { invoice_id: doc.id, amount, reason });
            return reload(`Credit note ${r.credit_note.number} issued.`);
          })
        }
      >
        Issue credit note
      </button>
    </section>
  );
}
