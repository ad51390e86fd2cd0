import type { ImportPreset, ImportResource } from './types.ts';

/** A mapping: for each column of the file, the field it fills, or null (ignored). */
export type Mapping = Record<string, string | null>;

/** Column and field names compared as people write them: case, spaces, `_`, `-`, `.` and `#` aside. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]/g, '');
}

/**
 * The proposed mapping of a file's columns: the preset's own column names first (when one is chosen),
 * then every field's name and synonyms. A field is filled by one column at most (the first that names
 * it); what matches nothing is null.
 */
export function proposeMapping(columns: readonly string[], resource: ImportResource, preset: ImportPreset | null): Mapping {
  const byName = new Map<string, string>();
  for (const f of resource.fields) {
    for (const n of [f.name, ...(f.synonyms ?? [])]) if (!byName.has(normalizeName(n))) byName.set(normalizeName(n), f.name);
  }
  const presetColumns = new Map(Object.entries(preset?.columns ?? {}).map(([c, f]) => [normalizeName(c), f]));
  const taken = new Set<string>();
  const mapping: Mapping = {};
  // preset columns win over synonyms wherever they appear in the file
  for (const c of columns) {
    const f = presetColumns.get(normalizeName(c));
    mapping[c] = f && !taken.has(f) ? f : null;
    if (mapping[c]) taken.add(mapping[c]!);
  }
  for (const c of columns) {
    if (mapping[c] || (preset && presetColumns.has(normalizeName(c)))) continue;
    const f = byName.get(normalizeName(c));
    if (f && !taken.has(f)) {
      mapping[c] = f;
      taken.add(f);
    }
  }
  return mapping;
}

/** Checks a mapping given by a caller: known columns, known fields, each field once. Answers problems by column. */
export function mappingProblems(
  columns: readonly string[],
  resource: ImportResource,
  mapping: Record<string, unknown>,
): Record<string, string> {
  const fields = new Set(resource.fields.map((f) => f.name));
  const problems: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [column, field] of Object.entries(mapping)) {
    if (!columns.includes(column)) problems[column] = 'The file has no such column.';
    else if (field !== null && (typeof field !== 'string' || !fields.has(field)))
      problems[column] = `"${String(field)}" is not a field of ${resource.name}.`;
    else if (field !== null && seen.has(field)) problems[column] = `${field} is already filled by the column "${seen.get(field)}".`;
    else if (field !== null) seen.set(field, column);
  }
  return problems;
}

/** A record's cells as fields; `null` when a preset's rule says the row is not a record (a ledger's total row). */
export function mapRecord(
  record: readonly string[],
  columns: readonly string[],
  mapping: Mapping,
  preset: ImportPreset | null,
): Record<string, string> | null {
  for (const rule of preset?.skip ?? []) {
    const i = columns.findIndex((c) => normalizeName(c) === normalizeName(rule.column));
    if (i >= 0 && rule.values.includes((record[i] ?? '').trim())) return null;
  }
  const values: Record<string, string> = {};
  columns.forEach((c, i) => {
    const f = mapping[c];
    if (f && record[i] !== undefined && record[i]!.trim() !== '') values[f] = record[i]!.trim();
  });
  return values;
}

/** `mapping` with `changes` applied column by column: a field a change gives to a column leaves the column that had it. */
export function withChanges(mapping: Mapping, changes: Readonly<Record<string, string | null>>): Mapping {
  const out: Mapping = { ...mapping };
  for (const [column, field] of Object.entries(changes)) {
    if (field) for (const c of Object.keys(out)) if (c !== column && out[c] === field) out[c] = null;
    out[column] = field;
  }
  return out;
}
