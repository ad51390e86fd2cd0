// Table layouts are functions, and functions cannot travel to a render worker inside a definition; so
// definitions name a layout (`layout: 'billingItems'`) and every pdfmake instance registers these.
import type { CustomTableLayout } from 'pdfmake/interfaces.js';

export const RULE_COLOR = '#d9dee5';
export const HEADER_FILL = '#f3f5f8';

export const TABLE_LAYOUTS: Record<string, CustomTableLayout> = {
  /** Item lines: a shaded header, hairlines between rows, no vertical rules. */
  billingItems: {
    hLineWidth: (i, node) => (i === 0 || i === node.table.body.length ? 0 : i === (node.table.headerRows ?? 0) ? 0.8 : 0.4),
    vLineWidth: () => 0,
    hLineColor: () => RULE_COLOR,
    fillColor: (row) => (row === 0 ? HEADER_FILL : null),
    paddingLeft: (i) => (i === 0 ? 8 : 6),
    paddingRight: (i, node) => (i === (node.table.widths?.length ?? 1) - 1 ? 8 : 6),
    paddingTop: () => 5,
    paddingBottom: () => 5,
  },
  /** Label/value pairs (dates, totals): no rules, tight rows. */
  billingPairs: {
    hLineWidth: () => 0,
    vLineWidth: () => 0,
    paddingLeft: () => 0,
    paddingRight: (i) => (i === 0 ? 12 : 0),
    paddingTop: () => 2,
    paddingBottom: () => 2,
  },
  /** The total row of the totals block, ruled above. */
  billingTotal: {
    hLineWidth: (i) => (i === 0 ? 1 : 0),
    vLineWidth: () => 0,
    hLineColor: () => '#1f2937',
    paddingLeft: () => 0,
    paddingRight: (i) => (i === 0 ? 12 : 0),
    paddingTop: () => 6,
    paddingBottom: () => 2,
  },
};
