/** Today's date as the date inputs and report ranges take it (YYYY-MM-DD). */
export const today = () => new Date().toISOString().slice(0, 10);

/** What billing_get_report_data answers: a series per period and the range's totals. */
export interface Report {
  labels: string[];
  series: { invoiced: number[]; paid: number[]; outstanding: number[] };
  totals: { invoiced: number; paid: number; outstanding: number };
  currency: string;
}
