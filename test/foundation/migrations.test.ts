import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Database } from '../../core/db/database.ts';
import { migrate, type Migration } from '../../core/db/migrations.ts';
import { silentLogger } from '../../core/log.ts';
import { freshDatabase, type TestDatabase } from '../../testing/index.ts';

let tdb: TestDatabase;
let one: Database;
let two: Database;

beforeAll(async () => {
  tdb = await freshDatabase();
  one = await Database.connect({ url: tdb.url, poolMax: 2, log: silentLogger() });
  two = await Database.connect({ url: tdb.url, poolMax: 2, log: silentLogger() });
});

afterAll(async () => {
  await one?.close();
  await two?.close();
  await tdb?.drop();
});

const steps: Migration[] = [
  { name: '0001', up: 'create table m_things (id serial primary key, name text not null)' },
  {
    name: '0002',
    up: async (tx) => {
      await tx.query(`insert into m_things (name) values ('seed')`);
    },
  },
];

describe('migrations', () => {
  it('run once when two instances start together', async () => {
    const [a, b] = await Promise.all([migrate(one, 'test', steps), migrate(two, 'test', steps)]);
    expect([...a, ...b].sort()).toEqual(['0001', '0002']);
    expect(await one.query('select name from m_things')).toEqual([{ name: 'seed' }]);
  });

  it('apply only what is new, and keep owners apart', async () => {
    expect(await migrate(one, 'test', [...steps, { name: '0003', up: 'alter table m_things add column note text' }])).toEqual(['0003']);
    expect(await migrate(one, 'other', [{ name: '0001', up: 'select 1' }])).toEqual(['0001']);
  });

  it('leave nothing behind when a step fails', async () => {
    const bad: Migration[] = [
      { name: '0001', up: 'create table m_half (id int)' },
      { name: '0002', up: 'this is not sql' },
    ];
    await expect(migrate(one, 'broken', bad)).rejects.toThrow();
    expect(await one.query(`select 1 from information_schema.tables where table_name = 'm_half'`)).toEqual([]);
    expect(await one.query(`select name from billing_migrations where owner = 'broken'`)).toEqual([]);
  });
});
