import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { allocateLargestRemainder } from './allocation.ts';

describe('allocateLargestRemainder', () => {
  it('gives leftover units to the largest remainders', () => {
    // quotas 99.909…, 199.819…, 33.27…: floors 99 + 199 + 33 = 331, two units left
    expect(allocateLargestRemainder(333n, [1000n, 2000n, 333n])).toEqual([100n, 200n, 33n]);
    expect(allocateLargestRemainder(10n, [1n, 1n, 1n])).toEqual([4n, 3n, 3n]);
    expect(allocateLargestRemainder(2n, [1n, 1n, 1n])).toEqual([1n, 1n, 0n]);
  });

  it("breaks ties by weight, then by the caller's preference, then by position", () => {
    // remainders tie (each 1/2) between equal weights 1, 1; the larger weight is exact
    expect(allocateLargestRemainder(1n, [1n, 1n])).toEqual([1n, 0n]);
    expect(allocateLargestRemainder(1n, [1n, 1n], (a, b) => b - a)).toEqual([0n, 1n]);
    // equal remainders 1/3 with weights 1 and 4 (quotas 0.333… and 1.333…): the larger weight wins
    expect(allocateLargestRemainder(2n, [1n, 4n, 1n])).toEqual([0n, 2n, 0n]);
  });

  it('is symmetric around zero', () => {
    expect(allocateLargestRemainder(-10n, [1n, 1n, 1n])).toEqual([-4n, -3n, -3n]);
    expect(allocateLargestRemainder(0n, [0n, 0n])).toEqual([0n, 0n]);
  });

  it('has the properties of the largest-remainder method', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const sum = weights.reduce((a, b) => a + b, 0n);
          fc.pre(sum > 0n);
          const parts = allocateLargestRemainder(total, weights);
          expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
          const sign = total < 0n ? -1n : 1n;
          weights.forEach((w, i) => {
            const part = parts[i]! * sign;
            const floorOfQuota = (total * sign * w) / sum;
            // each part is the floor of its exact quota, or one more; zero weights get nothing
            expect([0n, 1n]).toContain(part - floorOfQuota);
            if (w === 0n) expect(part).toBe(0n);
            weights.forEach((v, j) => {
              if (w > v) expect(part >= parts[j]! * sign).toBe(true);
            });
          });
        },
      ),
    );
  });
});
