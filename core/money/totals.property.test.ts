import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type CurrencyCode, minorUnits } from './currencies.ts';
import { DiscountExceedsSubtotalError } from './errors.ts';
import { Money } from './money.ts';
import { computeTotals, type DiscountInput, type DocumentTotals, type LineInput, type PaymentInput } from './totals.ts';

// Property tests over random documents. The oracle below recomputes what docs/documents.md defines with its
// own integer arithmetic (floor of (2n + d) / 2d for half-up on non-negative values), independent of
// the module's rounding helpers.

const CURRENCIES: CurrencyCode[] = ['USD', 'EUR', 'GBP', 'JPY', 'KRW', 'KWD', 'BHD', 'CLF'];

interface ScaledNumber {
  units: bigint;
  scale: number;
}

interface LineSpec {
  quantity: ScaledNumber;
  price: ScaledNumber;
  taxable: boolean;
  asNumbers: boolean;
  /** The line's own rate (used only when taxable): several rates in one document. */
  ownRate: ScaledNumber | null;
}

type DiscountSpec = { kind: 'none' } | { kind: 'percent'; units: bigint } | { kind: 'fixed'; perMille: bigint };

interface DocSpec {
  currency: CurrencyCode;
  lines: LineSpec[];
  discount: DiscountSpec;
  rate: ScaledNumber;
  payments: { amountMinor: bigint; refundedMinor: bigint; status: string }[];
  creditMinors: bigint[];
}

const scaled = (maxUnits: bigint, minUnits = 0n) =>
  fc.record({ units: fc.bigInt({ min: minUnits, max: maxUnits }), scale: fc.integer({ min: 0, max: 4 }) });

// A few common rates (so lines share groups) and arbitrary ones with up to 4 decimals.
const rateArb: fc.Arbitrary<ScaledNumber> = fc.oneof(
  fc.constantFrom(0n, 50000n, 70000n, 190000n, 200000n, 55000n).map((units) => ({ units, scale: 4 })),
  fc.record({ units: fc.bigInt({ min: 0n, max: 30n * 10n ** 4n }), scale: fc.constant(4) }),
);

const lineArb: fc.Arbitrary<LineSpec> = fc
  .record({
    quantity: scaled(10n ** 4n, 1n),
    price: scaled(10n ** 6n),
    taxable: fc.boolean(),
    asNumbers: fc.boolean(),
    ownRate: fc.option(rateArb, { freq: 2 }),
  })
  .map((l) => (l.taxable ? l : { ...l, ownRate: null }));

const discountArb: fc.Arbitrary<DiscountSpec> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('percent' as const), units: fc.bigInt({ min: 0n, max: 100n * 10n ** 4n }) }),
  // a fixed discount as a share of the subtotal, up to 120 % so some exceed it
  fc.record({ kind: fc.constant('fixed' as const), perMille: fc.bigInt({ min: 0n, max: 1200n }) }),
);

const docArb: fc.Arbitrary<DocSpec> = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 8 }),
  discount: discountArb,
  rate: rateArb,
  payments: fc.array(
    fc
      .record({
        amountMinor: fc.bigInt({ min: 0n, max: 10n ** 9n }),
        refundedMinor: fc.bigInt({ min: 0n, max: 10n ** 9n }),
        status: fc.constantFrom('completed', 'refunded', 'pending', 'failed', 'cancelled'),
      })
      .map((p) => ({ ...p, refundedMinor: p.refundedMinor > p.amountMinor ? p.amountMinor : p.refundedMinor })),
    { maxLength: 4 },
  ),
  creditMinors: fc.array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { maxLength: 3 }),
});

const pow10 = (n: number) => 10n ** BigInt(n);

function text(n: ScaledNumber): string {
  const digits = n.units.toString().padStart(n.scale + 1, '0');
  return n.scale === 0 ? digits : `${digits.slice(0, -n.scale)}.${digits.slice(-n.scale)}`;
}

/** Half away from zero for a non-negative ratio n / d. */
function roundHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

function oracleAmount(line: LineSpec, currency: CurrencyCode): bigint {
  return roundHalfUp(line.quantity.units * line.price.units * pow10(minorUnits(currency)), pow10(line.quantity.scale + line.price.scale));
}

function toInput(doc: DocSpec): { items: LineInput[]; discount: DiscountInput | null; payments: PaymentInput[]; subtotal: bigint } {
  const money = (minor: bigint) => Money.fromMinor(minor, doc.currency).toString();
  const items = doc.lines.map((l) => ({
    quantity: l.asNumbers ? Number(text(l.quantity)) : text(l.quantity),
    price: l.asNumbers ? Number(text(l.price)) : text(l.price),
    taxable: l.taxable,
    taxRate: l.ownRate ? text(l.ownRate) : null,
  }));
  const subtotal = doc.lines.reduce((s, l) => s + oracleAmount(l, doc.currency), 0n);
  let discount: DiscountInput | null = null;
  if (doc.discount.kind === 'percent') discount = { type: 'percent', value: text({ units: doc.discount.units, scale: 4 }) };
  if (doc.discount.kind === 'fixed') discount = { type: 'fixed', value: money((subtotal * doc.discount.perMille) / 1000n) };
  const payments = doc.payments.map((p) => ({ amount: money(p.amountMinor), refunded: money(p.refundedMinor), status: p.status }));
  return { items, discount, payments, subtotal };
}

function compute(doc: DocSpec, order?: number[]): DocumentTotals {
  const { items, discount, payments } = toInput(doc);
  return computeTotals({
    currency: doc.currency,
    items: order ? order.map((i) => items[i]!) : items,
    discount,
    taxRate: text(doc.rate),
    payments,
    creditNotes: doc.creditMinors.map((c) => ({ amount: Money.fromMinor(c, doc.currency).toString() })),
  });
}

const fixedTooLarge = (doc: DocSpec) => doc.discount.kind === 'fixed' && doc.discount.perMille > 1000n && toInput(doc).subtotal > 0n;

function decimalsOf(n: number): number {
  const s = String(n);
  expect(s).not.toMatch(/e/);
  return s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
}

describe('computeTotals properties over random documents', () => {
  it("matches the contract's formulas exactly", () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        fc.pre(!fixedTooLarge(doc));
        const t = compute(doc);
        const { subtotal } = toInput(doc);

        // line amounts and subtotal
        expect(t.lines.map((l) => l.amount.minor)).toEqual(doc.lines.map((l) => oracleAmount(l, doc.currency)));
        expect(t.subtotal.minor).toBe(subtotal);

        // discount value
        if (doc.discount.kind === 'none') expect(t.discount.minor).toBe(0n);
        if (doc.discount.kind === 'percent') expect(t.discount.minor).toBe(roundHalfUp(subtotal * doc.discount.units, 100n * pow10(4)));
        if (doc.discount.kind === 'fixed') expect(t.discount.minor).toBe((subtotal * doc.discount.perMille) / 1000n);

        // shares sum exactly to the discount, each the floor or ceiling of its exact proportion
        expect(t.lines.reduce((s, l) => s + l.discount.minor, 0n)).toBe(t.discount.minor);
        for (const l of t.lines) {
          expect(l.discount.minor >= 0n && l.discount.minor <= l.amount.minor).toBe(true);
          if (subtotal > 0n) {
            const floorOfQuota = (t.discount.minor * l.amount.minor) / subtotal;
            expect([0n, 1n]).toContain(l.discount.minor - floorOfQuota);
          }
        }

        // tax per rate group on taxable lines after their share, each group rounded once
        const taxable = t.lines.filter((l) => l.taxable).reduce((s, l) => s + l.amount.minor - l.discount.minor, 0n);
        expect(t.taxableAmount.minor).toBe(taxable);
        const bases = new Map<bigint, bigint>(); // rate units at scale 4 → basis
        doc.lines.forEach((l, i) => {
          if (!l.taxable) return;
          const rate = (l.ownRate ?? doc.rate).units;
          bases.set(rate, (bases.get(rate) ?? 0n) + t.lines[i]!.amount.minor - t.lines[i]!.discount.minor);
        });
        const groupTaxes = [...bases].map(([rate, basis]) => roundHalfUp(basis * rate, 100n * pow10(4)));
        expect(t.tax.minor).toBe(groupTaxes.reduce((s, x) => s + x, 0n));
        if (doc.lines.every((l) => !l.ownRate)) {
          // one rate: the contract's single rounding at document level
          expect(t.tax.minor).toBe(roundHalfUp(taxable * doc.rate.units, 100n * pow10(doc.rate.scale)));
        }
        if (doc.lines.every((l) => !l.taxable)) expect(t.tax.isZero()).toBe(true);

        // the groups: one per rate of the taxable lines (highest first), then the non-taxable lines;
        // every line in exactly one, group sums adding up to the document's
        const taxedGroups = t.taxGroups.filter((g) => g.taxable);
        expect(taxedGroups.map((g) => g.rate.unitsAt(4))).toEqual([...bases.keys()].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
        expect(t.taxGroups.filter((g) => !g.taxable).length).toBe(doc.lines.some((l) => !l.taxable) ? 1 : 0);
        expect(t.taxGroups.flatMap((g) => g.lines).sort((a, b) => a - b)).toEqual(doc.lines.map((_, i) => i));
        expect(t.taxGroups.reduce((s, g) => s + g.amount.minor, 0n)).toBe(t.subtotal.minor);
        expect(t.taxGroups.reduce((s, g) => s + g.discount.minor, 0n)).toBe(t.discount.minor);
        expect(t.taxGroups.reduce((s, g) => s + g.tax.minor, 0n)).toBe(t.tax.minor);
        for (const g of t.taxGroups) {
          expect(g.basis.minor).toBe(g.amount.minor - g.discount.minor);
          if (!g.taxable) expect(g.tax.isZero()).toBe(true);
        }

        // total, paid, credited, due
        expect(t.total.minor).toBe(t.subtotal.minor - t.discount.minor + t.tax.minor);
        const paid = doc.payments
          .filter((p) => p.status === 'completed' || p.status === 'refunded')
          .reduce((s, p) => s + p.amountMinor - p.refundedMinor, 0n);
        expect(t.paid.minor).toBe(paid);
        expect(t.credited.minor).toBe(doc.creditMinors.reduce((s, c) => s + c, 0n));
        const owed = t.total.minor - paid - t.credited.minor;
        expect(t.due.minor).toBe(owed > 0n ? owed : 0n);
        expect(t.due.isNegative()).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("writes JSON numbers with at most the currency's decimals, that read back exactly", () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        fc.pre(!fixedTooLarge(doc));
        const t = compute(doc);
        const m = minorUnits(doc.currency);
        const exact: Record<string, Money> = {
          subtotal: t.subtotal,
          discount: t.discount,
          tax: t.tax,
          total: t.total,
          paid: t.paid,
          credited: t.credited,
          due: t.due,
        };
        for (const [key, value] of Object.entries(t.json.totals)) {
          expect(decimalsOf(value)).toBeLessThanOrEqual(m);
          expect(Money.parse(value, doc.currency).equals(exact[key]!)).toBe(true);
        }
        t.json.items.forEach(({ amount }, i) => {
          expect(decimalsOf(amount)).toBeLessThanOrEqual(m);
          expect(Money.parse(amount, doc.currency).equals(t.lines[i]!.amount)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order of the items', () => {
    // Lines drawn from a small pool, so equal amounts with different taxable flags tie for discount units.
    const repetitive = fc
      .tuple(docArb, fc.array(fc.record({ pick: fc.nat(), taxable: fc.boolean() }), { minLength: 1, maxLength: 9 }))
      .map(([doc, picks]) => ({
        ...doc,
        lines: picks.map((p) => {
          const line = doc.lines[p.pick % Math.min(doc.lines.length, 2)]!;
          return { ...line, taxable: p.taxable, ownRate: p.taxable ? line.ownRate : null };
        }),
      }));
    const withOrder = fc.oneof(docArb, repetitive).chain((doc) => {
      const indices = doc.lines.map((_, i) => i);
      return fc.tuple(fc.constant(doc), fc.shuffledSubarray(indices, { minLength: indices.length, maxLength: indices.length }));
    });
    fc.assert(
      fc.property(withOrder, ([doc, order]) => {
        fc.pre(!fixedTooLarge(doc));
        const a = compute(doc);
        const b = compute(doc, order);
        for (const key of ['subtotal', 'discount', 'taxableAmount', 'tax', 'total', 'paid', 'credited', 'due'] as const) {
          expect(b[key].equals(a[key])).toBe(true);
        }
        const groups = (t: DocumentTotals) => t.taxGroups.map((g) => `${g.taxable}|${g.rate}|${g.amount}|${g.discount}|${g.tax}`);
        expect(groups(b)).toEqual(groups(a));
        // each line keeps its amount; lines that differ only in position may trade a discount unit
        order.forEach((from, to) => expect(b.lines[to]!.amount.equals(a.lines[from]!.amount)).toBe(true));
        const bag = (t: DocumentTotals) => t.lines.map((l) => `${l.amount}|${l.taxable}|${l.taxRate}|${l.discount}`).sort();
        expect(bag(b)).toEqual(bag(a));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses exactly the fixed discounts above the subtotal', () => {
    fc.assert(
      fc.property(docArb, fc.bigInt({ min: 1n, max: 10n ** 6n }), (doc, excess) => {
        const { subtotal } = toInput(doc);
        const over = Money.fromMinor(subtotal + excess, doc.currency).toString();
        const at = Money.fromMinor(subtotal, doc.currency).toString();
        const { items } = toInput(doc);
        expect(() => computeTotals({ currency: doc.currency, items, discount: { type: 'fixed', value: over } })).toThrow(
          DiscountExceedsSubtotalError,
        );
        const t = computeTotals({ currency: doc.currency, items, discount: { type: 'fixed', value: at }, taxRate: text(doc.rate) });
        expect(t.total.isZero()).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
