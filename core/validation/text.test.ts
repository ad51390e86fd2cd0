import { describe, expect, it } from '@jest/globals';
import { textProblem } from './text.ts';

describe('textProblem', () => {
  it('finds NUL and unpaired surrogates anywhere, keys included, and lets paired ones through', () => {
    expect(textProblem({ a: ['ok', { b: 'x\u0000y' }] }, 'body')).toEqual({ where: 'body.a[1].b', problem: 'bad_character' });
    expect(textProblem({ name: 'a\ud800' }, 'body')).toMatchObject({ where: 'body.name' });
    expect(textProblem({ name: '\udc00z' }, 'body')).toMatchObject({ where: 'body.name' });
    expect(textProblem({ ['k\u0000']: 1 }, 'query')).toMatchObject({ problem: 'bad_character' });
    expect(textProblem({ name: 'emoji 😀 and ünïcode' }, 'body')).toBeNull();
    expect(textProblem(['a', 1, null, true], 'body')).toBeNull();
  });

  it('refuses data nested too deep or with too many fields', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(textProblem(deep, 'body')).toMatchObject({ problem: 'too_deep' });
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i]));
    expect(textProblem(wide, 'body')).toMatchObject({ problem: 'too_many_keys' });
  });
});
