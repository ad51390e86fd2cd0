import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError, restPage, type Page } from '../api.ts';
import type { Client } from '../rest-types.ts';
import { can, DataTable, Field, money, Notice, type Props } from '../ui.tsx';
import { SavedMethods } from './saved-methods.tsx';
import { Statement } from './statement.tsx';

export function Clients({ props }: { props: Props }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<Client> | null>(null);
  const [editing, setEditing] = useState<Partial<Client> | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reload, setReload] = useState(0);
  useEffect(() => {
    restPage<Client>('/clients', { page, per_page: 20, search }).then(setData, (e: ApiError) =>
      setNotice({ kind: 'error', text: e.message }),
    );
  }, [page, search, reload]);
  const editable = can(props, 'bill_edit_clients');
  async function save(e: Event) {
    e.preventDefault();
    setErrors({});
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const fields: Record<string, string> = {};
    for (const k of ['name', 'email', 'company', 'country', 'vat', 'address', 'locale']) {
      const value = String(f.get(k) ?? '');
      // an edit sends what changed: a field the list does not show (the address) and left empty keeps its value
      if (!editing?.id || value !== String((editing as any)[k] ?? '')) fields[k] = value;
    }
    try {
      await ajax('billing_save_client', { ...(editing?.id ? { id: editing.id } : {}), ...fields });
      setNotice({ kind: 'ok', text: `Client ${fields.name ?? editing?.name ?? ''} saved.` });
      setEditing(null);
      setReload(reload + 1);
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.params);
      setNotice({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  }
  return (
    <div>
      <div class="billing-toolbar">
        {editable && (
          <button type="button" class="button-primary" onClick={() => setEditing({})}>
            New client
          </button>
        )}
        <form
          role="search"
          class="billing-filters"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(String(new FormData(e.currentTarget as HTMLFormElement).get('search') ?? ''));
            setPage(1);
          }}
        >
          <label for="client-search">Search clients</label>
          <input id="client-search" name="search" type="search" />
          <button type="submit">Search</button>
        </form>
      </div>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {editing && (
        <form class="billing-panel" onSubmit={save} aria-label={editing.id ? `Edit ${editing.name}` : 'New client'}>
          <h2>{editing.id ? `Edit ${editing.name}` : 'New client'}</h2>
          <div class="billing-grid">
            {(
              [
                ['name', 'Name'],
                ['email', 'E-mail'],
                ['company', 'Company'],
                ['country', 'Country (2 letters)'],
                ['vat', 'VAT number'],
                ['address', 'Address'],
                // the language its documents, pages and mails are in (docs/languages.md); empty: the site's
                ['locale', 'Language of documents (en, de, fr, es, it, nl)'],
              ] as const
            ).map(([k, label]) => (
              <Field id={`cl-${k}`} label={label} error={errors[k]}>
                <input id={`cl-${k}`} name={k} defaultValue={String((editing as any)[k] ?? '')} type={k === 'email' ? 'email' : 'text'} />
              </Field>
            ))}
          </div>
          <button type="submit" class="button-primary">
            Save client
          </button>{' '}
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
          {editing.id && (
            <Statement clientId={editing.id} name={editing.name ?? ''} currencies={Object.keys(editing.totals_by_currency ?? {})} />
          )}
          {editing.id && <SavedMethods clientId={editing.id} name={editing.name ?? ''} />}
        </form>
      )}
      <DataTable
        data={data}
        caption="Clients"
        empty={search ? 'No client matches this search.' : editable ? 'No clients yet. Add one with New client.' : 'No clients yet.'}
        page={page}
        onPage={setPage}
        columns={[
          {
            label: 'Name',
            cell: (c) => (
              <>
                <a href={`/wp-admin/invoices.php?client_id=${c.id}`}>{c.name}</a>
                <div class="billing-sub">{c.email}</div>
              </>
            ),
          },
          { label: 'Company', cell: (c) => c.company },
          { label: 'Country', cell: (c) => c.country },
          { label: 'Invoices', cell: (c) => c.counts.invoices },
          { label: 'Invoiced', num: true, cell: (c) => money(c.totals.invoiced, props.currency) },
          { label: 'Due', num: true, cell: (c) => money(c.totals.due, props.currency) },
          editable && {
            label: 'Actions',
            cell: (c) => (
              <button type="button" onClick={() => setEditing(c)}>
                Edit {c.name}
              </button>
            ),
          },
        ]}
      />
    </div>
  );
}
