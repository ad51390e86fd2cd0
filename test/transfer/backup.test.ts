import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useService, usingPostgres, waitFor } from '../../testing/index.ts';
import { billing } from '../helpers/cli.ts';
import { archiveDir, entries } from './support.ts';

const svc = useService();
const cli = (...args: string[]) => billing(svc.databaseUrl, args);
const backupJob = async () =>
  (JSON.parse((await cli('cron', 'list', '--format', 'json')).stdout) as Array<{ hook: string }>).find((j) => j.hook === 'billing_backup');

describe('scheduled backups (billing_backup)', () => {
  it('is off until backup_schedule is set, which every instance then follows; a schedule that is not cron is refused', async () => {
    expect(await backupJob()).toMatchObject({ schedule: 'off', next_run: null });
    expect((await cli('option', 'set', 'backup_schedule', 'every night')).code).toBe(1);
    expect((await cli('option', 'set', 'backup_schedule', '30 2 * * *')).code).toBe(0);
    expect(await backupJob()).toMatchObject({ schedule: '30 2 * * *', next_run: expect.stringMatching(/T02:30:00\.000Z$/) });
    // the running server, told by the CLI's change, arms the job
    await waitFor(async () => (await svc.kernel.jobs.status()).find((j) => j.hook === 'billing_backup')?.schedule === '30 2 * * *', {
      what: 'the server to follow backup_schedule',
    });
    expect((await cli('option', 'set', 'backup_schedule', '')).code).toBe(0);
    await waitFor(async () => (await svc.kernel.jobs.status()).find((j) => j.hook === 'billing_backup')?.schedule === 'off', {
      what: 'the server to switch the job off',
    });
  });

  it('writes an export archive into backup_dir and keeps only the newest backup_keep', async () => {
    const dir = archiveDir();
    await svc.setOption('backup_dir', dir);
    await svc.setOption('backup_keep', 2);
    await svc.kernel.api.invoices.create(
      { items: [{ name: 'Kept', quantity: 1, price: 3 }], customer_name: 'Backed Up' },
      { actor: { id: null, name: 'test' }, source: 'api' },
    );
    const files: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await cli('cron', 'run', 'billing_backup', '--format', 'json');
      expect(r.code).toBe(0);
      const { result } = JSON.parse(r.stdout);
      files.push(result.file);
      expect(result.removed).toEqual(i < 2 ? [] : [files[0]!.slice(dir.length + 1)]);
    }
    expect(readdirSync(dir).sort()).toEqual(files.slice(1).map((f) => f.slice(dir.length + 1)));
    const inside = await entries(join(dir, readdirSync(dir)[0]!));
    expect(inside.map((e) => e.name)).toContain('manifest.json');
    expect(inside.find((e) => e.name === 'invoices.ndjson')!.bytes.toString()).toContain('"customer_name": "Backed Up"');
  });

  (usingPostgres ? it : it.skip)(
    'skips while another instance is writing one (the export holds a lock for its whole snapshot)',
    async () => {
      await svc.setOption('backup_dir', archiveDir());
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const other = svc.kernel.db.transaction(async (tx) => {
        await tx.query(`select pg_advisory_xact_lock(hashtext('billing_backup'))`);
        locked();
        await held;
      });
      await isLocked;
      const outcome = await svc.kernel.jobs.runNow('billing_backup');
      release();
      await other;
      expect(outcome).toMatchObject({ status: 'succeeded', result: { skipped: 'another instance is writing a backup' } });
      expect((await svc.kernel.jobs.runNow('billing_backup')).result).toMatchObject({ file: expect.any(String) });
    },
  );
});
