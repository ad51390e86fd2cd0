import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { formatMoney } from '../../display/format.ts';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

/** The Reports chart: invoiced and paid as bars, outstanding as a line, amounts in the report's currency. */
export function drawChart(
  canvas: HTMLCanvasElement,
  r: { labels: string[]; series: { invoiced: number[]; paid: number[]; outstanding: number[] }; currency: string },
): Chart {
  const fmt = (v: number | string) => formatMoney(String(v), r.currency);
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: r.labels,
      datasets: [
        { label: 'Invoiced', data: r.series.invoiced, backgroundColor: '#2271b1' },
        { label: 'Paid', data: r.series.paid, backgroundColor: '#00a32a' },
        { type: 'line', label: 'Outstanding', data: r.series.outstanding, borderColor: '#b32d2e', backgroundColor: '#b32d2e' } as any,
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { y: { ticks: { callback: (v) => fmt(v) } } },
      plugins: { tooltip: { callbacks: { label: (c) => `${c.dataset.label}: ${fmt(c.parsed.y ?? 0)}` } } },
    },
  });
}
