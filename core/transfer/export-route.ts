import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { audit } from '../audit/audit.ts';
import { BillingError } from '../errors.ts';
import { RestResponse, type RestRoute } from '../http/rest/route.ts';
import { backupName } from './backup.ts';
import { exportArchive } from './export.ts';
import type { TransferDeps } from './transfer-deps.ts';

/**
 * `GET /export`: the Import & export screen's "Download export" — the archive `billing export` writes,
 * never with secrets (those leave only by the CLI, on the server), written to a file under the data
 * folder and streamed from there, so memory stays flat. One at a time per database: a second request
 * while one is written is told to come back rather than doubling the work. Who took the business's data
 * out is in the audit log.
 */
export function exportRoute(d: TransferDeps, dataDir: string): RestRoute {
  return {
    path: '/export',
    methods: 'GET',
    capability: 'bill_manage_settings',
    description:
      'Everything as one export archive (.tar.gz, without secrets), as `billing export` writes it; restore it with `billing import <archive>`.',
    response: { contentType: 'application/gzip', errors: ['billing_busy'] },
    handler: async (req) => {
      const dir = join(dataDir, 'exports');
      await mkdir(dir, { recursive: true });
      const name = backupName(new Date()).replace('backup', 'export');
      const written = await exportArchive(d, join(dir, name), { exclusive: 'billing_export_download' });
      if (!written) throw new BillingError('billing_busy', 'Another export is being written; try again in a moment.');
      await audit(d.db, req.actor, {
        action: 'export.download',
        objectType: 'site',
        objectId: null,
        details: { rows: written.rows, bytes: written.bytes },
      });
      return RestResponse.file(written.path, 'application/gzip', name);
    },
  };
}
