import { Field } from '../ui.tsx';
import { blankInstalment, type Instalment } from './draft.ts';

/**
 * The invoice's payment schedule: a row per instalment (its date, and an amount or a percent such as
 * `30%`), added and removed here; the server checks that it sums to the total and says so under it.
 */
export function ScheduleRows(p: { rows: Instalment[]; editable: boolean; error?: string; onChange: (rows: Instalment[]) => void }) {
  const update = (i: number, patch: Partial<Instalment>) => p.onChange(p.rows.map((r, n) => (n === i ? { ...r, ...patch } : r)));
  return (
    <fieldset disabled={!p.editable}>
      <legend>Payment schedule</legend>
      {p.rows.length === 0 && <p class="description">One due date. Add instalments to split the invoice.</p>}
      {p.rows.map((r, i) => (
        <div class="billing-grid" key={r.key}>
          <Field id={`b-schedule-${i}-due_date`} label={`Instalment ${i + 1} due`}>
            <input
              id={`b-schedule-${i}-due_date`}
              type="date"
              value={r.due_date}
              onInput={(ev) => update(i, { due_date: (ev.target as HTMLInputElement).value })}
            />
          </Field>
          <Field id={`b-schedule-${i}-amount`} label={`Instalment ${i + 1} amount or percent`}>
            <input
              id={`b-schedule-${i}-amount`}
              inputMode="decimal"
              placeholder="250.00 or 30%"
              value={r.amount}
              onInput={(ev) => update(i, { amount: (ev.target as HTMLInputElement).value })}
            />
          </Field>
          <button type="button" onClick={() => p.onChange(p.rows.filter((_, n) => n !== i))} aria-label={`Remove instalment ${i + 1}`}>
            Remove
          </button>
        </div>
      ))}
      {p.error && (
        <small class="billing-field-error" id="b-schedule-error" role="alert">
          {p.error}
        </small>
      )}
      <button type="button" onClick={() => p.onChange([...p.rows, blankInstalment()])}>
        Add instalment
      </button>
    </fieldset>
  );
}
