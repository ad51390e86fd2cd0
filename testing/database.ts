import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openEmbedded } from '../core/db/embedded.ts';
import { emptyDataDir } from './embedded-template.ts';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/**
 * A fresh, empty database for one test file. With TEST_DATABASE_URL (a real PostgreSQL) it is a new
 * database named after the jest worker; without, an in-memory embedded PGlite served on its own socket,
 * started from a dumped empty data directory rather than initdb (see `emptyDataDir`).
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    const socketDir = mkdtempSync(join(tmpdir(), 'billing-pgl-'));
    const emb = await openEmbedded('memory://', socketDir, { loadDataDir: await emptyDataDir() });
    return {
      url: emb.url,
      async drop() {
        await emb.close();
        rmSync(socketDir, { recursive: true, force: true });
      },
    };
  }
  const name = `billing_test_w${process.env.JEST_WORKER_ID ?? 0}_${process.pid}_${++counter}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
