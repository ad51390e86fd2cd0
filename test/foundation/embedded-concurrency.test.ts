import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Database } from '../../core/db/database.ts';
import { openEmbedded, type EmbeddedDatabase } from '../../core/db/embedded.ts';
import { silentLogger } from '../../core/log.ts';

let emb: EmbeddedDatabase;
let db: Database;

beforeAll(async () => {
  emb = await openEmbedded('memory://', mkdtempSync(join(tmpdir(), 'billing-mux-')));
  db = await Database.connect({ url: emb.url, poolMax: 4, log: silentLogger() });
  await db.query('create table mux_rows (id int primary key, v text not null)');
  await db.query('create table mux_counter (k text primary key, n int not null)');
  await db.query(`insert into mux_counter values ('x', 0)`);
  await db.query(`insert into mux_rows select g, 'v' || g from generate_series(1, 500) g`);
});

afterAll(async () => {
  await db?.close();
  await emb?.close();
});

describe('the embedded database with several connections', () => {
  it("keeps each connection's statements and transactions whole: every query gets its own rows", async () => {
    // Before ExchangeQueue, pglite-socket interleaved one connection's Parse/Bind with another's: here that
    // gave about a quarter of the reads someone else's answer, and "portal does not exist" errors.
    let wrong = 0;
    let failed = 0;
    let transactions = 0;
    // a fixed amount of work, not a time window: what is checked is correctness, never speed
    await Promise.all([
      ...Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 60; i++) {
          const id = 1 + Math.floor(Math.random() * 500);
          try {
            const rows = await db.query<{ id: number; v: string }>('select id, v from mux_rows where id = $1', [id]);
            if (rows.length !== 1 || rows[0]!.id !== id || rows[0]!.v !== `v${id}`) wrong++;
          } catch {
            failed++;
          }
        }
      }),
      ...Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 20; i++) {
          try {
            await db.transaction(async (tx) => {
              await tx.query('update mux_counter set n = n + 1 where k = $1', ['x']);
              const rows = await tx.query<{ id: number }>('select id from mux_rows where id = $1', [7]);
              if (rows.length !== 1 || rows[0]!.id !== 7) wrong++;
            });
            transactions++;
          } catch {
            failed++;
          }
        }
      }),
    ]);
    expect({ wrong, failed }).toEqual({ wrong: 0, failed: 0 });
    const [{ n }] = await db.query<{ n: number }>(`select n from mux_counter where k = 'x'`);
    expect(n).toBe(transactions);
    expect(transactions).toBe(6 * 20);
  });
});
