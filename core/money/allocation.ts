/**
 * Splits an integer `total` (minor units) over non-negative integer `weights` by the largest-remainder
 * (Hamilton) method: each part gets the floor of its exact quota `total × weight / Σweights`, then the
 * units left over go one each to the parts with the largest remainders. The parts sum exactly to
 * `total`, each is within one unit of its exact quota, a zero weight gets nothing, and a larger weight
 * never gets less than a smaller one.
 *
 * Ties between equal remainders go to the larger weight, then to whatever `tieBreak` prefers (a negative
 * result puts index `a` first), then to the lower index. A negative total is split like its absolute
 * value and the parts negated, so rounding is symmetric around zero.
 *
 * Throws `RangeError` for a negative weight, or a non-zero total over weights that are all zero.
 */
export function allocateLargestRemainder(total: bigint, weights: readonly bigint[], tieBreak?: (a: number, b: number) => number): bigint[] {
  let sum = 0n;
  for (const w of weights) {
    if (w < 0n) throw new RangeError('Allocation weights must not be negative.');
    sum += w;
  }
  if (total === 0n) return weights.map(() => 0n);
  if (sum === 0n) throw new RangeError('Cannot allocate a non-zero amount over weights that are all zero.');

  const negative = total < 0n;
  const amount = negative ? -total : total;
  const parts = weights.map((w) => (amount * w) / sum);
  const remainders = weights.map((w) => (amount * w) % sum);
  let left = amount - parts.reduce((a, b) => a + b, 0n);

  const order = weights.map((_, i) => i);
  order.sort((a, b) => {
    const byRemainder = compareBigint(remainders[b]!, remainders[a]!);
    if (byRemainder !== 0) return byRemainder;
    const byWeight = compareBigint(weights[b]!, weights[a]!);
    if (byWeight !== 0) return byWeight;
    const preferred = tieBreak ? tieBreak(a, b) : 0;
    return preferred !== 0 ? preferred : a - b;
  });
  // `left` is below the number of parts with a remainder, so only those ever get a unit.
  for (const i of order) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return negative ? parts.map((p) => -p) : parts;
}

function compareBigint(a: bigint, b: bigint): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
