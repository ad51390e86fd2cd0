import { describe, expect, it } from '@jest/globals';
import { Money } from '../money/index.ts';
import { invoiceStatusAfter } from './invoice-status.ts';

const usd = (v: string) => Money.parse(v, 'USD');
const money = (paid: string, credited: string, due: string, received = Number(paid) > 0) => ({
  paid: usd(paid),
  credited: usd(credited),
  due: usd(due),
  received,
});

describe('invoiceStatusAfter', () => {
  it('follows the money once issued', () => {
    expect(invoiceStatusAfter('available', money('10', '0', '90'))).toBe('partial');
    expect(invoiceStatusAfter('available', money('100', '0', '0'))).toBe('paid');
    expect(invoiceStatusAfter('paid', money('60', '0', '40'))).toBe('partial');
    expect(invoiceStatusAfter('paid', money('0', '0', '100', true))).toBe('unpaid');
    expect(invoiceStatusAfter('unpaid', money('10', '0', '90'))).toBe('partial');
    expect(invoiceStatusAfter('partial', money('40', '60', '0'))).toBe('paid');
    expect(invoiceStatusAfter('paid', money('130', '0', '0'))).toBe('paid');
  });

  it('a credit note changes nothing unless due reaches 0: then paid if anything is paid, else cancelled', () => {
    expect(invoiceStatusAfter('available', money('0', '30', '70'))).toBe('available');
    expect(invoiceStatusAfter('unpaid', money('0', '30', '70', true))).toBe('unpaid');
    expect(invoiceStatusAfter('available', money('0', '100', '0'))).toBe('cancelled');
    expect(invoiceStatusAfter('unpaid', money('0', '100', '0', true))).toBe('cancelled');
  });

  it('leaves drafts, cancelled invoices and untouched zero invoices alone', () => {
    expect(invoiceStatusAfter('draft', money('10', '0', '90'))).toBe('draft');
    expect(invoiceStatusAfter('cancelled', money('100', '0', '0'))).toBe('cancelled');
    expect(invoiceStatusAfter('available', money('0', '0', '0'))).toBe('available');
  });
});
