import { useEffect, useState } from 'preact/hooks';
import { ApiError, restPage, type Page } from '../api.ts';
import type { AuditEntry } from '../rest-types.ts';
import { DataTable, Notice, type Props } from '../ui.tsx';

export function AuditLog(_: { props: Props }) {
  const [page, setPage] = useState(1);
  const [type, setType] = useState('');
  const [data, setData] = useState<Page<AuditEntry> | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    restPage<AuditEntry>('/audit-log', { page, per_page: 50, object_type: type }).then(setData, (e: ApiError) => setError(e.message));
  }, [page, type]);
  return (
    <div>
      <div class="billing-filters">
        <label for="audit-type">Object</label>
        <select
          id="audit-type"
          value={type}
          onChange={(e) => {
            setType((e.target as HTMLSelectElement).value);
            setPage(1);
          }}
        >
          <option value="">Everything</option>
          {['invoice', 'quote', 'payment', 'credit_note', 'option', 'plugin', 'user'].map((t) => (
            <option value={t}>{t.replace('_', ' ')}</option>
          ))}
        </select>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <DataTable
        data={data}
        error={error}
        caption="Audit log"
        empty="Nothing recorded yet."
        page={page}
        onPage={setPage}
        columns={[
          { label: 'When', cell: (a) => a.at },
          { label: 'Who', cell: (a) => a.actor },
          { label: 'What', cell: (a) => a.action },
          { label: 'Object', cell: (a) => (a.object_type ? `${a.object_type} ${a.object_id ?? ''}` : '') },
          {
            label: 'Details',
            cell: (a) => (
              <span class="billing-details">{a.details && Object.keys(a.details as object).length ? JSON.stringify(a.details) : ''}</span>
            ),
          },
        ]}
      />
    </div>
  );
}
