import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { CHANGE_CHANNEL, LocalFeed, type Feed } from './change-feed.ts';
import { ExchangeQueue } from './pglite-exchange-queue.ts';

/**
 * The embedded database: PGlite (PostgreSQL compiled to WASM) kept under DATA_DIR, served over the
 * PostgreSQL wire protocol on a unix socket beside its files. The service then talks to it exactly as
 * to a real PostgreSQL — one driver, one SQL dialect, one code path — and a second process on the same
 * DATA_DIR (the CLI while the server runs) connects to that socket instead of opening the files twice,
 * which PGlite does not allow.
 *
 * pglite-socket multiplexes connections onto PGlite's single session; `ExchangeQueue` keeps each
 * connection's exchanges and transactions whole. Session state (SET, LISTEN, session advisory locks) is
 * therefore shared, and the service uses none of it.
 */
/**
 * Connections the socket server accepts. Node's server drops any beyond this with a reset, and pools
 * close and reopen connections as they go idle, so it is well above what the pools use together
 * (the server's 4 plus a CLI's); the queries of all of them run one at a time on PGlite anyway.
 */
export const EMBEDDED_MAX_CONNECTIONS = 32;
/** The pool of one process on the embedded database. */
export const EMBEDDED_POOL = 4;

const localFeeds = new Map<string, LocalFeed>();

/**
 * The change feed of the embedded database at `url`, when this process serves it (null otherwise: a
 * process reaching another's socket hears nothing, and caches nothing).
 */
export function embeddedFeed(url: string): Feed | null {
  return localFeeds.get(url) ?? null;
}

export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

const SOCKET_NAME = '.s.PGSQL.5432';

function urlFor(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface OpenEmbeddedOptions {
  /**
   * A data directory dumped by PGlite (`dumpDataDir`) to start from instead of running initdb, which
   * is most of the second or more that opening a new database takes (the tests open dozens).
   */
  loadDataDir?: Blob;
}

/**
 * Opens the embedded database under `dataDir` (or an in-memory one for `memory://`). When another
 * process already serves it, answers that process's address and owns nothing.
 */
export async function openEmbedded(dataDir: string, socketDir?: string, opts: OpenEmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const inMemory = dataDir === 'memory://';
  const dir = socketDir ?? dataDir;
  mkdirSync(dir, { recursive: true });
  const socketPath = join(dir, SOCKET_NAME);
  if (existsSync(socketPath)) {
    if (await socketAnswers(socketPath)) return { url: urlFor(dir), close: async () => {} };
    rmSync(socketPath, { force: true }); // left by a process that died
  }
  // pg_trgm: the substring search of document lists (a contrib module on a real PostgreSQL)
  const db = await PGlite.create(inMemory ? undefined : join(dataDir, 'pgdata'), {
    extensions: { pg_trgm },
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: EMBEDDED_MAX_CONNECTIONS });
  // its own queue interleaves connections' extended-protocol exchanges: ours keeps each one whole
  const queue = new ExchangeQueue(db);
  (server as unknown as { queryQueue: ExchangeQueue }).queryQueue = queue;
  // the session listens once for this process: the queue hands each notification to the local feed
  const url = urlFor(dir);
  const feed = new LocalFeed();
  await db.exec(`listen ${CHANGE_CHANNEL}`);
  queue.onNotification = (channel, payload) => feed.deliver(channel, payload);
  await server.start();
  localFeeds.set(url, feed);
  return {
    url,
    async close() {
      localFeeds.delete(url);
      feed.close();
      await server.stop();
      await db.close();
      rmSync(socketPath, { force: true });
    },
  };
}
