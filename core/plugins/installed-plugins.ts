import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import semver from 'semver';
import { audit, type Actor } from '../audit/audit.ts';
import type { Database } from '../db/database.ts';
import { bumpRevision } from '../db/revision.ts';
import { BillingError } from '../errors.ts';
import { ARCHIVE_LIMITS, integrityOf, readPackageArchive } from './package-archive.ts';
import { parsePermissions, type PluginPermissions } from './permissions.ts';

/** What package.json's `billing` key says, checked. */
export interface PackageManifest {
  name: string;
  version: string;
  main: string;
  compatibility: string;
  permissions: PluginPermissions;
}

export interface InstalledPackage extends PackageManifest {
  integrity: string;
}

/** Reads a `<folder | file.tgz | npm spec>` to the tarball npm would publish for it (npm pack, in a temp folder). */
export function packageTarball(source: string): Buffer {
  const path = resolve(source);
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // not a path: an npm package spec
  }
  if (isFile) return readBounded(path);
  const dir = mkdtempSync(join(tmpdir(), 'billing-pack-'));
  try {
    // --ignore-scripts: packing someone's package must not run their code on this machine
    const target = statSafe(path) ? path : source;
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, target], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    JSON.parse(out); // npm answers JSON when it packed; the one file in `dir` is the tarball
    return readBounded(
      join(
        dir,
        readdirSync(dir).find((f) => f.endsWith('.tgz'))!,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readBounded(file: string): Buffer {
  if (statSync(file).size > ARCHIVE_LIMITS.gzipBytes) {
    throw new BillingError('billing_plugin_package_invalid', `the package is larger than ${ARCHIVE_LIMITS.gzipBytes} bytes`);
  }
  return readFileSync(file);
}

/** Checks a package's files as a plugin for this service: its `billing` key, name and compatibility. */
export function checkPackage(files: ReadonlyMap<string, Buffer>, serviceVersion: string, bundled: ReadonlySet<string>): PackageManifest {
  let pkg: Record<string, any>;
  try {
    pkg = JSON.parse(files.get('package.json')!.toString('utf8'));
  } catch {
    throw new BillingError('billing_plugin_package_invalid', 'package.json is not JSON');
  }
  const invalid = (why: string) => new BillingError('billing_plugin_package_invalid', `${pkg.name ?? 'the package'}: ${why}`);
  const billing = pkg.billing;
  if (billing?.plugin !== true) throw invalid('package.json has no "billing": {"plugin": true}');
  if (typeof pkg.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(pkg.name))
    throw invalid('the name must be kebab-case, without a scope');
  if (!semver.valid(pkg.version)) throw invalid('the version is not semver');
  if (typeof billing.compatibility !== 'string' || !semver.validRange(billing.compatibility)) {
    throw invalid('billing.compatibility must be a semver range');
  }
  if (bundled.has(pkg.name)) throw invalid(`the name ${pkg.name} is taken by a plugin of the service`);
  if (!semver.satisfies(serviceVersion, billing.compatibility, { includePrerelease: true })) {
    throw new BillingError(
      'billing_plugin_incompatible',
      `${pkg.name} ${pkg.version} works with versions ${billing.compatibility} of the service, not ${serviceVersion}`,
    );
  }
  const main = String(pkg.exports?.['.'] ?? pkg.main ?? 'index.js').replace(/^\.\//, '');
  if (!files.has(main)) throw invalid(`its main file ${main} is not in the package`);
  return {
    name: pkg.name,
    version: pkg.version,
    main,
    compatibility: billing.compatibility,
    permissions: parsePermissions(pkg.name, billing.permissions),
  };
}

/**
 * Plugins installed from packages, kept in the database (the tarball and its digest) so every instance
 * sharing it unpacks the same bytes under its DATA_DIR at its next sync (docs/plugins.md, "Installing").
 */
export class InstalledPlugins {
  private readonly db: Database;
  private readonly dataDir: string;

  constructor(db: Database, dataDir: string) {
    this.db = db;
    this.dataDir = dataDir;
  }

  /** Checks and stores a package; an installed plugin of the same name is replaced (an upgrade). */
  async install(
    tarball: Buffer,
    opts: { integrity?: string; serviceVersion: string; bundled: ReadonlySet<string>; actor: Actor },
  ): Promise<InstalledPackage> {
    const integrity = integrityOf(tarball);
    if (opts.integrity !== undefined && opts.integrity !== integrity) {
      throw new BillingError('billing_plugin_integrity', `the package's digest is ${integrity}, not the ${opts.integrity} expected`, {
        integrity,
      });
    }
    const manifest = checkPackage(await readPackageArchive(tarball), opts.serviceVersion, opts.bundled);
    await this.db.transaction(async (tx) => {
      await tx.query(
        `insert into billing_plugin_packages (name, version, integrity, tarball, manifest) values ($1, $2, $3, $4, $5)
         on conflict (name) do update set version = excluded.version, integrity = excluded.integrity, tarball = excluded.tarball,
           manifest = excluded.manifest, installed_at = now()`,
        [manifest.name, manifest.version, integrity, tarball, JSON.stringify(manifest)],
      );
      await bumpRevision(tx, 'plugins');
      await audit(tx, opts.actor, {
        action: 'plugin.install',
        objectType: 'plugin',
        objectId: manifest.name,
        details: { version: manifest.version, integrity, permissions: manifest.permissions },
      });
    });
    return { ...manifest, integrity };
  }

  async remove(name: string, actor: Actor, details: Record<string, unknown>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('delete from billing_plugin_packages where name = $1', [name]);
      await bumpRevision(tx, 'plugins');
      await audit(tx, actor, { action: 'plugin.uninstall', objectType: 'plugin', objectId: name, details });
    });
  }

  async list(): Promise<InstalledPackage[]> {
    const rows = await this.db.query<{ integrity: string; manifest: PackageManifest }>(
      'select integrity, manifest from billing_plugin_packages order by name',
    );
    return rows.map((r) => ({ ...r.manifest, integrity: r.integrity }));
  }

  /** The package's files, unpacked under DATA_DIR/plugins/<name>/<digest> (once per digest). */
  async unpack(pkg: InstalledPackage): Promise<{ dir: string; files: Map<string, Buffer> }> {
    const [row] = await this.db.query<{ tarball: Buffer }>(
      'select tarball from billing_plugin_packages where name = $1 and integrity = $2',
      [pkg.name, pkg.integrity],
    );
    if (!row) throw new BillingError('billing_unknown_plugin', `${pkg.name} is no longer installed`);
    const tarball = Buffer.from(row.tarball);
    if (integrityOf(tarball) !== pkg.integrity)
      throw new BillingError('billing_plugin_integrity', `${pkg.name}: the stored package does not match its digest`);
    const files = await readPackageArchive(tarball);
    const root = join(this.dataDir, 'plugins', pkg.name);
    const dir = join(root, Buffer.from(pkg.integrity).toString('hex').slice(14, 46));
    for (const old of safeList(root)) if (join(root, old) !== dir) rmSync(join(root, old), { recursive: true, force: true });
    for (const [path, body] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), body);
    }
    return { dir, files };
  }

  /** Removes what this instance unpacked for a plugin no longer installed. */
  forget(name: string): void {
    rmSync(join(this.dataDir, 'plugins', name), { recursive: true, force: true });
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
