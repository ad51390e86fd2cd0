import type { Actor } from '../audit/audit.ts';
import type { Database, Tx } from '../db/database.ts';
import { bumpRevision } from '../db/revision.ts';
import { BillingError } from '../errors.ts';
import type { ExportSection } from '../hooks/hook-map.ts';
import type { PluginInfo } from '../plugins/plugin-manager.ts';
import { checkAgainstManifest, readArchive } from './archive-reader.ts';
import type { Manifest } from './manifest.ts';
import { NO_PROGRESS, type Progress } from './progress.ts';
import { DERIVED, sectionFile } from './sections.ts';
import { tableColumns, type TransferDeps } from './transfer-deps.ts';

/** The plugin lifecycle a restore needs: which are installed, and switching them on (and back off). */
export interface RestorePlugins {
  list(): Promise<PluginInfo[]>;
  declaredMigrations(name: string): string[] | null;
  activate(name: string, actor: Actor): Promise<void>;
  deactivate(name: string, actor: Actor): Promise<void>;
}

export interface RestoreDeps extends TransferDeps {
  plugins: RestorePlugins;
  actor: Actor;
}

export interface RestoreResult {
  /** Rows restored per file. */
  restored: Record<string, number>;
  /** Files of plugins not installed here: left out. */
  skipped: string[];
  /** Plugins switched on by the restore. */
  activated: string[];
  includes_secrets: boolean;
}

const invalid = (message: string) => new BillingError('billing_archive_invalid', message);

/**
 * Restores an export archive into an empty instance (docs/import-export.md). The archive is untrusted
 * until read whole: a first reading checks every file against the manifest and the limits, and the
 * schema it was written from against this one, before anything is written. Then the plugins it had
 * active and this instance has are switched on (their tables made), and one transaction replaces the
 * instance's rows with the archive's, read a second time and checked again entry by entry (the file may
 * have changed since): any failure rolls it all back and switches those plugins off again.
 */
export async function restoreArchive(d: RestoreDeps, path: string, progress: Progress = NO_PROGRESS): Promise<RestoreResult> {
  await refuseUnlessEmpty(d.db);
  const { manifest, found, order } = await readArchive(path, null);
  checkAgainstManifest(manifest, found);
  const installed = new Map((await d.plugins.list()).filter((p) => p.compatible).map((p) => [p.name, p]));
  const wanted = manifest.plugins.map((p) => p.name).filter((n) => installed.has(n));
  await checkSchema(d, manifest, wanted);

  const activated: string[] = [];
  try {
    for (const name of activationOrder(wanted, installed)) {
      if (installed.get(name)!.active) continue;
      await d.plugins.activate(name, d.actor);
      activated.push(name);
    }
    const sections = await d.sections();
    const plan = await planRestore(d.db, sections, manifest, order, new Set(wanted));
    const restored = await d.db.transaction(async (tx) => {
      await refuseUnlessEmpty(tx);
      return restoreRows(tx, plan, manifest, path, progress);
    });
    return { restored, skipped: plan.skipped, activated, includes_secrets: manifest.includes_secrets };
  } catch (err) {
    for (const name of activated.reverse()) await d.plugins.deactivate(name, d.actor).catch(() => {});
    throw err;
  }
}

/** Documents, clients or payments here: a restore would mix two businesses' records. */
async function refuseUnlessEmpty(db: Database | Tx): Promise<void> {
  const rows = await db.query<{ documents: boolean; clients: boolean; payments: boolean }>(
    `select exists (select 1 from billing_documents) as documents,
            exists (select 1 from billing_users where role = 'billing_client') as clients,
            exists (select 1 from billing_payments) as payments`,
  );
  const held = Object.entries(rows[0]!)
    .filter(([, v]) => v)
    .map(([k]) => k);
  if (held.length) {
    throw new BillingError(
      'billing_import_refused',
      `this instance already holds ${held.join(', ')}: an archive is restored only into an empty instance`,
    );
  }
}

/**
 * The archive's schema must be this one's: the same migrations applied for every core part, and for
 * every plugin restored the steps this version of it declares. Rows are inserted as they were stored,
 * so a schema of another version could not take them (restore with the version that exported, then
 * upgrade).
 */
async function checkSchema(d: RestoreDeps, manifest: Manifest, plugins: string[]): Promise<void> {
  const here = new Map<string, string[]>();
  for (const r of await d.db.query<{ owner: string; name: string }>('select owner, name from billing_migrations')) {
    (here.get(r.owner) ?? here.set(r.owner, []).get(r.owner)!).push(r.name);
  }
  for (const name of plugins) here.set(`plugin:${name}`, d.plugins.declaredMigrations(name) ?? []);
  const same = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
  for (const [owner, steps] of Object.entries(manifest.schema)) {
    if (owner.startsWith('plugin:') && !plugins.includes(owner.slice('plugin:'.length))) continue;
    const mine = here.get(owner);
    if (!mine || !same(mine, steps)) {
      throw invalid(
        `the archive was written by a service whose schema of ${owner} differs from this one's ` +
          `(service ${manifest.service_version}); restore it with that version, then upgrade`,
      );
    }
  }
  for (const owner of here.keys()) {
    if (!owner.startsWith('plugin:') && !(owner in manifest.schema)) {
      throw invalid(`the archive has no schema of ${owner}; it was written by another version (${manifest.service_version})`);
    }
  }
}

/** Plugins in an order that switches each one's requirements on first. */
function activationOrder(names: string[], installed: Map<string, PluginInfo>): string[] {
  const order: string[] = [];
  const visit = (n: string, path: string[]) => {
    if (order.includes(n) || path.includes(n) || !installed.has(n)) return;
    for (const r of installed.get(n)!.requires) visit(r, [...path, n]);
    order.push(n);
  };
  for (const n of names) visit(n, []);
  return order;
}

interface SectionPlan {
  section: ExportSection;
  file: string;
  /** The archive's columns for it (each one a column of the table here). */
  columns: string[];
  /** Columns the archive lacks that get a fresh value per row (a new signing secret). */
  fresh: Array<[string, () => string]>;
}

interface Plan {
  /** Sections whose file the archive has, in restore order. */
  sections: SectionPlan[];
  skipped: string[];
}

/** Which file goes into which table; refuses files nothing here knows and columns this schema lacks. */
async function planRestore(
  db: Database,
  sections: readonly ExportSection[],
  manifest: Manifest,
  order: string[],
  plugins: Set<string>,
): Promise<Plan> {
  const byFile = new Map(sections.map((s) => [sectionFile(s), s]));
  const skipped: string[] = [];
  for (const file of order) {
    if (!file.endsWith('.ndjson') || byFile.has(file)) continue;
    const owner = file.includes('/') ? file.slice(0, file.indexOf('/')) : null;
    if (owner && !plugins.has(owner)) skipped.push(file);
    else throw invalid(`the archive holds ${file}, which this service does not know`);
  }
  const planned: SectionPlan[] = [];
  for (const section of sections) {
    const file = sectionFile(section);
    const listed = manifest.files[file];
    if (!listed) {
      // secrets travel only when asked for; a plugin's sections only when it was active in the source
      if (section.secret || section.name.includes('/')) continue;
      throw invalid(`the archive has no ${file}`);
    }
    const here = new Set((await tableColumns(db, section.table)).map((c) => c.name));
    const columns = listed.columns ?? [];
    const unknown = columns.find((c) => !here.has(c));
    if (unknown) throw invalid(`${file} has a column "${unknown}" that ${section.table} has not here`);
    for (const k of section.key) if (!columns.includes(k)) throw invalid(`${file} lacks its key column "${k}"`);
    const fresh = Object.entries(section.secretColumns ?? {}).filter(
      (e): e is [string, () => string] => typeof e[1] === 'function' && !columns.includes(e[0]),
    );
    planned.push({ section, file, columns, fresh });
  }
  // rows go in the order of the sections here (requirements first); the archive must keep that order
  const positions = planned.map((p) => order.indexOf(p.file));
  if (positions.some((p, i) => i > 0 && p < positions[i - 1]!)) throw invalid('the archive lists its files in an order no export writes');
  return { sections: planned, skipped };
}

const ident = (name: string) => `"${name}"`;

/** Inside the restore's transaction: the instance's rows out, the archive's in, references and sequences set. */
async function restoreRows(tx: Tx, plan: Plan, manifest: Manifest, path: string, progress: Progress): Promise<Record<string, number>> {
  for (const { section } of [...plan.sections].reverse()) {
    await tx.query(`delete from ${section.table} where ${section.where ?? 'true'}`);
  }
  // this locks the tables until the commit: a restore goes into an instance nobody uses yet
  for (const [table, trigger] of DERIVED.triggers) await tx.query(`alter table ${table} disable trigger ${trigger}`);
  const later = new Map<string, string>();
  for (const [i, { section }] of plan.sections.entries()) {
    if (!section.later?.length) continue;
    const temp = `billing_restore_later_${i}`;
    await tx.query(
      `create temporary table ${temp} on commit drop as select ${[...section.key, ...section.later].map(ident).join(', ')} from ${section.table} limit 0`,
    );
    later.set(section.name, temp);
  }

  const restored: Record<string, number> = {};
  const byName = new Map(plan.sections.map((p) => [p.section.name, p]));
  let current: string | null = null;
  await readArchive(
    path,
    {
      section(name) {
        const p = byName.get(name);
        if (!p) return null;
        return async (lines) => {
          if (current !== p.file) {
            if (current) progress.end();
            current = p.file;
            progress.begin(p.file, manifest.files[p.file]!.rows ?? 0);
          }
          await insertRows(tx, p, lines, later.get(p.section.name));
          restored[p.file] = (restored[p.file] ?? 0) + lines.length;
          progress.advance(lines.length);
        };
      },
    },
    manifest,
  );
  if (current) progress.end();

  for (const p of plan.sections) {
    restored[p.file] ??= 0;
    const temp = later.get(p.section.name);
    if (temp) {
      const set = p.section.later!.map((c) => `${ident(c)} = l.${ident(c)}`).join(', ');
      const match = p.section.key.map((k) => `t.${ident(k)} = l.${ident(k)}`).join(' and ');
      await tx.query(`update ${p.section.table} t set ${set} from ${temp} l where ${match}`);
    }
  }
  for (const [table, trigger] of DERIVED.triggers) await tx.query(`alter table ${table} enable trigger ${trigger}`);
  for (const rebuild of DERIVED.rebuild) await tx.query(`select ${rebuild}()`);
  await continueSequences(tx, plan);
  // every instance forgets its cached options and looks at the plugins again
  await bumpRevision(tx, 'options');
  return restored;
}

/** One batch of a section's rows, inserted as they were stored. */
async function insertRows(tx: Tx, p: SectionPlan, lines: string[], laterTable: string | undefined): Promise<void> {
  let rows = lines;
  const columns = [...p.columns];
  if (p.fresh.length) {
    rows = lines.map((line) => {
      const row = JSON.parse(line) as Record<string, unknown>;
      for (const [column, make] of p.fresh) row[column] = make();
      return JSON.stringify(row);
    });
    columns.push(...p.fresh.map(([c]) => c));
  }
  const later = new Set(p.section.later ?? []);
  const values = columns.map((c) => (later.has(c) ? 'null' : `r.${ident(c)}`)).join(', ');
  const json = `[${rows.join(',')}]`;
  await tx.query(
    `insert into ${p.section.table} (${columns.map(ident).join(', ')})
     select ${values} from jsonb_populate_recordset(null::${p.section.table}, $1::jsonb) r`,
    [json],
  );
  if (laterTable) {
    const refs = p.section.later!.filter((c) => columns.includes(c));
    if (!refs.length) return;
    await tx.query(
      `insert into ${laterTable} (${[...p.section.key, ...refs].map(ident).join(', ')})
       select ${[...p.section.key, ...refs].map((c) => `r.${ident(c)}`).join(', ')}
         from jsonb_populate_recordset(null::${p.section.table}, $1::jsonb) r
        where ${refs.map((c) => `r.${ident(c)} is not null`).join(' or ')}`,
      [json],
    );
  }
}

/** Each table's id sequence moved past the highest id restored, so the next row created takes a new one. */
async function continueSequences(tx: Tx, plan: Plan): Promise<void> {
  const done = new Set<string>();
  for (const { section } of plan.sections) {
    if (section.key.length !== 1 || done.has(section.table)) continue;
    done.add(section.table);
    const [key] = section.key as [string];
    const seq =
      section.sequence ??
      (await tx.query<{ seq: string | null }>('select pg_get_serial_sequence($1, $2) as seq', [section.table, key]))[0]?.seq;
    if (!seq) continue;
    await tx.query(`select setval($1, m) from (select max(${ident(key)}) as m from ${section.table}) x where m is not null`, [seq]);
  }
}
