import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { isCurrency } from '../money/currencies.ts';
import { isCountry } from '../tax/countries.ts';
import { isTimeZone } from '../time/site-time.ts';
import { isValidBic, isValidIban } from '../banking/iban.ts';
import { apiBaseProblem } from '../options/api-base.ts';
import { isUnitCode } from '../units/units.ts';
import { validCron } from '../jobs/cron.ts';
import { canonicalLocale } from '../i18n/locale-tag.ts';

/**
 * The one ajv instance. Schemas are the single source of request checking, OPTIONS answers and docs;
 * compiled functions are cached by schema object, so a schema is compiled once per process.
 */
export const ajv = new Ajv({ allErrors: true, coerceTypes: false, useDefaults: false, strict: false });
// ajv-formats is CommonJS with a default export
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof addFormatsModule.default;
addFormats(ajv);

ajv.addFormat('date-ymd', {
  type: 'string',
  validate: (s: string) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!m) return false;
    const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
    return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
  },
});

ajv.addFormat('currency', { type: 'string', validate: (s: string) => isCurrency(s) });
ajv.addFormat('country', { type: 'string', validate: (s: string) => isCountry(s) });
// a well-formed BCP 47 tag (`de`, `pt-BR`); one the service does not ship prints in English
ajv.addFormat('locale', { type: 'string', validate: (s: string) => canonicalLocale(s) !== null });
ajv.addFormat('iban', { type: 'string', validate: (s: string) => isValidIban(s) });
ajv.addFormat('bic', { type: 'string', validate: (s: string) => isValidBic(s) });
ajv.addFormat('timezone', { type: 'string', validate: (s: string) => isTimeZone(s) });
ajv.addFormat('unit-code', { type: 'string', validate: (s: string) => isUnitCode(s) });
// a job's schedule held in a setting (backup_schedule)
ajv.addFormat('cron', { type: 'string', validate: (s: string) => validCron(s) });
// the shape of a base URL a secret is sent to; the options store also applies the process's loopback rule
ajv.addFormat('api-base', { type: 'string', validate: (s: string) => apiBaseProblem(s, true) === null });
// `invalidMessage`: the message to give when a parameter fails, where ajv's own would mislead
ajv.addKeyword({ keyword: 'invalidMessage', schemaType: 'string' });

const cache = new WeakMap<object, ValidateFunction>();

export function validator(schema: object): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  return fn;
}

/** One readable line for an ajv failure, e.g. "must be integer" or "must be <= 100". */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'is invalid';
  return errors.map((e) => `${e.instancePath ? e.instancePath.slice(1) + ' ' : ''}${e.message ?? 'is invalid'}`).join('; ');
}
