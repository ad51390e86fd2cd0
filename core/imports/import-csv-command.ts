import { readFile } from 'node:fs/promises';
import { CLI } from '../audit/audit.ts';
import type { Command } from '../cli/command.ts';
import type { ImportService } from './import-service.ts';
import { withChanges } from './mapping.ts';
import type { DateFormat, DecimalSeparator } from './cell-readers.ts';

/**
 * `billing import csv <file> --resource <r> [--preset <p>] [--map column=field …] [--commit]`: the
 * preview, and with `--commit` the import itself, run in this process (docs/import-export.md).
 */
export function importCsvCommand(imports: ImportService): Command {
  return {
    words: ['import', 'csv'],
    usage:
      'import csv <file> --resource <clients|invoices|payments|…> [--preset <p>] [--map column=field …] [--date-format <f>] [--decimal-separator <.|,>] [--commit]',
    arity: 1,
    options: {
      resource: { type: 'string' },
      preset: { type: 'string' },
      map: { type: 'string', multiple: true },
      'date-format': { type: 'string' },
      'decimal-separator': { type: 'string' },
      commit: { type: 'boolean' },
    },
    async run({ args, flags }) {
      if (typeof flags.resource !== 'string') throw new Error('--resource is required (clients, invoices, payments, …)');
      const body = await readFile(args[0]!);
      const preview = await imports.preview(body, flags.resource, typeof flags.preset === 'string' ? flags.preset : null, CLI);
      const given = (flags as Record<string, unknown>).map; // `multiple`: every --map, in order
      const maps = given === undefined ? [] : Array.isArray(given) ? given.map(String) : [String(given)];
      const mapping: Record<string, string | null> = {};
      for (const m of maps) {
        const at = m.lastIndexOf('=');
        if (at <= 0) throw new Error(`--map takes column=field (field empty to ignore the column), not "${m}"`);
        const field = m.slice(at + 1).trim();
        mapping[m.slice(0, at).trim()] = field === '' ? null : field;
      }
      if (!flags.commit) return { ...preview, mapping: withChanges(preview.mapping, mapping) };
      return imports.commit(
        preview.id,
        {
          mapping,
          ...(typeof flags['date-format'] === 'string' ? { date_format: flags['date-format'] as DateFormat } : {}),
          ...(typeof flags['decimal-separator'] === 'string' ? { decimal_separator: flags['decimal-separator'] as DecimalSeparator } : {}),
        },
        CLI,
        true,
      );
    },
    text(r: {
      status?: string;
      created?: number;
      updated?: number;
      skipped?: number;
      failed?: Array<{ row: number; message: string }>;
      columns?: string[];
      mapping?: Record<string, string | null>;
      rows?: number;
      errors?: Array<{ row: number; message: string }>;
    }) {
      if (r.status) {
        const lines = [`${r.status}: created ${r.created}, updated ${r.updated}, skipped ${r.skipped}, failed ${r.failed!.length}`];
        for (const f of r.failed!) lines.push(`  row ${f.row}: ${f.message}`);
        return lines.join('\n');
      }
      const lines = [`${r.rows} rows; columns → fields:`];
      for (const c of r.columns!) lines.push(`  ${c} → ${r.mapping![c] ?? '(ignored)'}`);
      for (const e of r.errors ?? []) lines.push(`row ${e.row}: ${e.message}`);
      lines.push('Run again with --commit to import (and --map column=field to change the mapping).');
      return lines.join('\n');
    },
  };
}
