import { useEffect, useState } from 'preact/hooks';
import { ajax, ApiError, rest, restPage } from '../api.ts';
import { customerEmail, customerName, openPdf, STATUSES, type Doc, type Kind } from '../documents.ts';
import { Busy, can, DataTable, money, Notice, StatusBadge, StatusFilter, type Props } from '../ui.tsx';

interface RowResult {
  ok: boolean;
  text: string;
}

/** The Invoices and Quotes lists: server-side pages, search, filters, sorting and bulk actions with a result per row. */
export function DocumentList({ props, kind }: { props: Props; kind: Kind }) {
  const q = props.query;
  const [search, setSearch] = useState(q.search ?? '');
  const [status, setStatus] = useState(q.status ?? '');
  const [client, setClient] = useState(q.client_id ?? '');
  const [orderby, setOrderby] = useState(q.orderby ?? 'date');
  const [order, setOrder] = useState(q.order ?? 'desc');
  const [page, setPage] = useState(Number(q.paged ?? 1) || 1);
  const [data, setData] = useState<{ items: Doc[]; total: number; pages: number } | null>(null);
  const [clients, setClients] = useState<Array<{ id: number; name: string }>>([]);
  const [error, setError] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [results, setResults] = useState<Map<number, RowResult>>(new Map());
  const [busy, setBusy] = useState('');
  const [bulkNote, setBulkNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [reload, setReload] = useState(0);
  const plural = `${kind}s`;
  const Title = kind === 'invoice' ? 'Invoice' : 'Quote';

  useEffect(() => {
    if (can(props, 'bill_view_clients'))
      ajax<Array<{ id: number; name: string }>>('billing_search_clients', { term: '' }).then(setClients, () => {});
  }, []);

  useEffect(() => {
    let live = true;
    setError('');
    restPage<Doc>(`/${plural}`, { page, per_page: 20, search, status, client_id: client, orderby, order })
      .then((p) => live && setData(p))
      .catch((e: ApiError) => live && setError(e.message));
    const url = new URL(location.href);
    for (const [k, v] of Object.entries({ search, status, client_id: client, orderby, order, paged: page > 1 ? String(page) : '' })) {
      if (v) url.searchParams.set(k, v);
      else url.searchParams.delete(k);
    }
    history.replaceState(null, '', url);
    return () => {
      live = false;
    };
  }, [page, search, status, client, orderby, order, reload]);

  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  async function bulk(what: 'send' | 'trash') {
    const ids = [...selected];
    if (!ids.length) return;
    const out = new Map<number, RowResult>();
    setBulkNote(null);
    let n = 0;
    for (const id of ids) {
      setBusy(`${what === 'send' ? 'Sending' : 'Moving to the trash'} ${++n} of ${ids.length}…`);
      try {
        if (what === 'send') await ajax(`billing_send_${kind}_email`, { id });
        else if (kind === 'invoice') await ajax('billing_delete_invoice', { id });
        else await rest(`/quotes/${id}`, { method: 'DELETE' });
        out.set(id, { ok: true, text: what === 'send' ? 'Sent' : 'Moved to the trash' });
      } catch (e) {
        out.set(id, { ok: false, text: e instanceof Error ? e.message : String(e) });
      }
      setResults(new Map(out));
    }
    setBusy('');
    const failed = [...out.values()].filter((r) => !r.ok).length;
    const done = what === 'send' ? 'sent' : 'moved to the trash';
    setBulkNote(
      failed
        ? { kind: 'error', text: `${failed} of ${ids.length} could not be ${what === 'send' ? 'sent' : 'trashed'}: see each row.` }
        : { kind: 'ok', text: `All ${ids.length} ${done}.` },
    );
    setSelected(new Set());
    // sending issues drafts and trashing removes rows: the page as the server now has it
    setReload(reload + 1);
  }

  const sortBy = (key: string) => {
    if (orderby === key) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setOrderby(key);
      setOrder('desc');
    }
    setPage(1);
  };
  const sortHeader = (key: string, label: string) => (
    <th aria-sort={orderby === key ? (order === 'asc' ? 'ascending' : 'descending') : undefined} scope="col">
      <button type="button" class="billing-sort" onClick={() => sortBy(key)}>
        {label}
        {orderby === key ? (order === 'asc' ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
  const canCreate = can(props, `bill_create_${kind}`);
  const canSend = can(props, `bill_send_${kind}`);
  const canTrash = can(props, `bill_delete_${kind}`);
  const filtered = search || status || client;
  const resultsList = [...results.entries()];

  return (
    <div class="billing-list">
      <div class="billing-toolbar">
        {canCreate && (
          <a class="button button-primary" href={`/wp-admin/${kind}.php`}>
            New {kind}
          </a>
        )}
        <form
          role="search"
          class="billing-filters"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget as HTMLFormElement);
            setSearch(String(f.get('search') ?? ''));
            setPage(1);
          }}
        >
          <label for="billing-search">Search {plural}</label>
          <input id="billing-search" name="search" type="search" defaultValue={search} />
          <button type="submit">Search</button>
          <StatusFilter
            id="billing-status-filter"
            statuses={STATUSES[kind]}
            value={status}
            onChange={(s) => {
              setStatus(s);
              setPage(1);
            }}
          />
          {clients.length > 0 && (
            <>
              <label for="billing-client-filter">Client</label>
              <select
                id="billing-client-filter"
                value={client}
                onChange={(e) => {
                  setClient((e.target as HTMLSelectElement).value);
                  setPage(1);
                }}
              >
                <option value="">All clients</option>
                {clients.map((c) => (
                  <option value={String(c.id)}>{c.name}</option>
                ))}
              </select>
            </>
          )}
        </form>
      </div>
      {(canSend || canTrash) && (
        <div class="billing-bulk" role="group" aria-label="Bulk actions">
          <span>{selected.size} selected</span>
          {canSend && (
            <button type="button" disabled={!selected.size || !!busy} onClick={() => bulk('send')}>
              Send selected
            </button>
          )}
          {canTrash && (
            <button type="button" disabled={!selected.size || !!busy} onClick={() => bulk('trash')}>
              Move selected to trash
            </button>
          )}
        </div>
      )}
      {busy && <Busy text={busy} />}
      {error && <Notice kind="error">{error}</Notice>}
      {bulkNote && !busy && <Notice kind={bulkNote.kind}>{bulkNote.text}</Notice>}
      {resultsList.length > 0 && !busy && (
        <div class="billing-results" role="status" aria-label="Results">
          <ul>
            {resultsList.map(([id, r]) => {
              const d = data?.items.find((x) => x.id === id);
              return (
                <li class={r.ok ? 'ok' : 'failed'}>
                  {d?.number ?? `#${id}`}: {r.text}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <DataTable<Doc>
        data={data}
        error={error}
        caption={`${Title}s`}
        page={page}
        onPage={setPage}
        empty={
          filtered ? (
            <p>No {plural} match these filters. Clear the search or choose another status.</p>
          ) : (
            <p>
              There are no {plural} yet.{' '}
              {canCreate ? <a href={`/wp-admin/${kind}.php`}>Create the first {kind}</a> : `Nothing to show until someone creates one.`}
            </p>
          )
        }
        columns={[
          (canSend || canTrash) && {
            label: 'Select',
            head: (
              <td>
                <input
                  type="checkbox"
                  aria-label="Select all on this page"
                  checked={!!data && data.items.every((d) => selected.has(d.id))}
                  onChange={(e) => setSelected((e.target as HTMLInputElement).checked ? new Set(data!.items.map((d) => d.id)) : new Set())}
                />
              </td>
            ),
            cell: (d) => (
              <input type="checkbox" aria-label={`Select ${d.number}`} checked={selected.has(d.id)} onChange={() => toggle(d.id)} />
            ),
          },
          {
            label: 'Number',
            head: sortHeader('number', 'Number'),
            cell: (d) => {
              const r = results.get(d.id);
              return (
                <>
                  <a href={`/wp-admin/${kind}.php?id=${d.id}`}>{d.number}</a>
                  {d.title && <div class="billing-sub">{d.title}</div>}
                  {r && <div class={r.ok ? 'billing-row-ok' : 'billing-row-failed'}>{r.text}</div>}
                </>
              );
            },
          },
          {
            label: 'Customer',
            cell: (d) => (
              <>
                {customerName(d) || '—'}
                <div class="billing-sub">{customerEmail(d)}</div>
              </>
            ),
          },
          { label: 'Status', cell: (d) => <StatusBadge status={d.status} overdue={d.overdue} /> },
          { label: 'Date', head: sortHeader('date', 'Date'), cell: (d) => d.issue_date },
          kind === 'invoice' && { label: 'Due date', head: sortHeader('due_date', 'Due date'), cell: (d) => d.due_date },
          { label: 'Total', head: sortHeader('total', 'Total'), num: true, cell: (d) => money(d.totals.total, d.currency) },
          kind === 'invoice' && { label: 'Amount due', num: true, cell: (d) => money(d.totals.due, d.currency) },
          {
            label: 'PDF',
            cell: (d) => (
              <button
                type="button"
                class="button-link"
                aria-label={`PDF of ${d.number}`}
                onClick={() => openPdf(kind, d.id).catch((e) => setError(e.message))}
              >
                PDF
              </button>
            ),
          },
        ]}
      />
    </div>
  );
}
