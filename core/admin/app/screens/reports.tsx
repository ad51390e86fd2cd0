import { useEffect, useRef, useState } from 'preact/hooks';
import { ajax, ApiError } from '../api.ts';
import { Busy, money, Notice, type Props } from '../ui.tsx';
import { today, type Report } from './shared.ts';

export function Reports({ props }: { props: Props }) {
  const end0 = today();
  const start0 = new Date(Date.now() - 29 * 86400_000).toISOString().slice(0, 10);
  const [range, setRange] = useState({
    start: props.query.start ?? start0,
    end: props.query.end ?? end0,
    group: props.query.group ?? 'day',
  });
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState('');
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<any>(null);
  useEffect(() => {
    setError('');
    ajax<Report>('billing_get_report_data', range).then(setReport, (e: ApiError) => setError(e.message));
  }, [range]);
  useEffect(() => {
    if (!report || !canvas.current) return;
    let live = true;
    import('../chart.ts').then(({ drawChart }) => {
      if (!live) return;
      chart.current?.destroy();
      chart.current = drawChart(canvas.current!, report);
    });
    return () => {
      live = false;
    };
  }, [report]);
  return (
    <div class="billing-reports">
      <form
        class="billing-filters"
        onSubmit={(e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget as HTMLFormElement);
          setRange({ start: String(f.get('start')), end: String(f.get('end')), group: String(f.get('group')) });
        }}
      >
        <label for="rep-start">From</label>
        <input id="rep-start" name="start" type="date" defaultValue={range.start} />
        <label for="rep-end">To</label>
        <input id="rep-end" name="end" type="date" defaultValue={range.end} />
        <label for="rep-group">Per</label>
        <select id="rep-group" name="group" defaultValue={range.group}>
          <option value="day">Day</option>
          <option value="week">Week</option>
          <option value="month">Month</option>
        </select>
        <button type="submit">Show report</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      {!report && !error && <Busy text="Loading…" />}
      <div class="billing-report-body">
        <div class="billing-chart">
          <canvas ref={canvas} role="img" aria-label="Invoiced, paid and outstanding per period" />
        </div>
        {report && (
          <table class="billing-table billing-report-totals" aria-label="Totals">
            <tbody>
              <tr>
                <th scope="row">Invoiced</th>
                <td class="num" data-total="invoiced">
                  {money(report.totals.invoiced, report.currency)}
                </td>
              </tr>
              <tr>
                <th scope="row">Paid</th>
                <td class="num" data-total="paid">
                  {money(report.totals.paid, report.currency)}
                </td>
              </tr>
              <tr>
                <th scope="row">Outstanding</th>
                <td class="num" data-total="outstanding">
                  {money(report.totals.outstanding, report.currency)}
                </td>
              </tr>
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
