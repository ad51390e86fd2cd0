import { describe, expect, it } from '@jest/globals';
import { BillingError, declareErrors, errorStatus } from './errors.ts';

describe('error codes', () => {
  it('a plugin’s declared code carries its status into BillingError', () => {
    declareErrors('late-fees', { late_fees_too_high: { status: 422, description: 'The fee exceeds the cap.' } });
    expect(errorStatus('late_fees_too_high')).toBe(422);
    expect(new BillingError('late_fees_too_high' as never, 'Too high.').status).toBe(422);
  });

  it('may not shadow a core code or another plugin’s', () => {
    expect(() => declareErrors('rogue', { billing_rest_not_found: { status: 400, description: '' } })).toThrow(/already the core's/);
    declareErrors('first', { first_broken: { status: 409, description: '' } });
    expect(() => declareErrors('second', { first_broken: { status: 409, description: '' } })).toThrow(/already first's/);
    declareErrors('first', { first_broken: { status: 409, description: '' } }); // again, as another instance loads it
  });

  it('needs a snake_case code and an error status', () => {
    expect(() => declareErrors('p', { 'Bad-Code': { status: 400, description: '' } })).toThrow(/snake_case/);
    expect(() => declareErrors('p', { p_fine: { status: 200, description: '' } })).toThrow(/4xx or 5xx/);
  });

  it('an undeclared code answers 500: the service, not the caller, is at fault', () => {
    expect(new BillingError('nobody_declared_this' as never, 'x').status).toBe(500);
  });
});
