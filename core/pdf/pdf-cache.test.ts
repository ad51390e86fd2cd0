import { describe, expect, it } from '@jest/globals';
import { canonicalJson } from './canonical-json.ts';
import { PdfCache } from './pdf-cache.ts';

const pdf = (size: number) => ({ bytes: Buffer.alloc(size), etag: `"${size}"` });

describe('PDF cache', () => {
  it('evicts the least recently used entries to stay within its byte bound', () => {
    const cache = new PdfCache(100);
    cache.set('a', pdf(40));
    cache.set('b', pdf(40));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', pdf(40)); // 120 > 100: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.bytes).toBe(80);
    expect(cache.size).toBe(2);
  });

  it('keeps nothing larger than its bound, and replaces an entry in place', () => {
    const cache = new PdfCache(100);
    cache.set('big', pdf(101));
    expect(cache.size).toBe(0);
    cache.set('a', pdf(10));
    cache.set('a', pdf(30));
    expect(cache.bytes).toBe(30);
    expect(new PdfCache(0).maxBytes).toBe(0);
  });
});

describe('canonical JSON', () => {
  it('is the same text for equal data in any key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true } })).toBe(canonicalJson({ a: { c: true, d: [1, 'x', null] }, b: 1 }));
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
    expect(JSON.parse(canonicalJson({ s: 'Ελένη "quoted"\n' }))).toEqual({ s: 'Ελένη "quoted"\n' });
    expect(canonicalJson({ d: new Date('2025-03-07T00:00:00Z') })).toBe('{"d":"2025-03-07T00:00:00.000Z"}');
  });

  it('refuses what a worker could not receive as it is', () => {
    expect(() => canonicalJson({ layout: { hLineWidth: () => 1 } })).toThrow(/\$\.layout\.hLineWidth is a function/);
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson({ img: Buffer.from('x') })).toThrow(/Buffer instance/);
  });
});
