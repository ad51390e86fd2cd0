import { readFileSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';

/** Process configuration, read once from the environment (README.md). */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  /** `postgres://…`; undefined means the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  secretKey: string | undefined;
  smtpUrl: string | undefined;
  adminPassword: string | undefined;
  logLevel: string;
  /** How often an instance looks for plugin/option changes made by another instance (ms). */
  syncIntervalMs: number;
  /** Directories searched for plugin folders: the bundled `plugins/`, then BILLING_PLUGIN_DIRS. */
  pluginDirs: string[];
  /** Plugins of the service's own (or of a plugin folder) to run in the sandbox (BILLING_SANDBOXED_PLUGINS, comma-separated). */
  sandboxedPlugins: string[];
  /** Where installed npm plugins are looked for (a folder holding node_modules). */
  packageRoot: string;
  /**
   * Which proxies' `X-Forwarded-For` names the client (express's `trust proxy`: `loopback`, a hop count,
   * addresses). Unset: none, the connection's address is the client's. Sign-in throttling counts per
   * client address, so behind a reverse proxy this must be set, or every visitor shares the proxy's.
   */
  trustProxy?: string;
  /**
   * Whether a gateway's API base (an `api-base` option, where its secret is sent) may be plain http: to
   * this machine (BILLING_GATEWAY_LOOPBACK_HTTP=1). Off: https: only. For tests and local fakes.
   */
  gatewayLoopbackHttp: boolean;
}

const ROOT = resolve(import.meta.dirname, '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = overrides.port ?? Number(env.PORT ?? 8080);
  const config: Config = {
    port,
    host: env.HOST ?? '127.0.0.1',
    baseUrl: (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR ?? 'data'),
    secretKey: env.SECRET_KEY || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    adminPassword: env.BILLING_ADMIN_PASSWORD || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    syncIntervalMs: Number(env.BILLING_SYNC_INTERVAL_MS ?? 1000),
    pluginDirs: [
      resolve(ROOT, 'plugins'),
      ...(env.BILLING_PLUGIN_DIRS ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((d) => resolve(d)),
    ],
    sandboxedPlugins: (env.BILLING_SANDBOXED_PLUGINS ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    packageRoot: ROOT,
    trustProxy: env.BILLING_TRUST_PROXY || undefined,
    gatewayLoopbackHttp: env.BILLING_GATEWAY_LOOPBACK_HTTP === '1',
    ...overrides,
  };
  return config;
}

export const PROJECT_ROOT = ROOT;

/** This service's version (package.json), which plugins' `compatibility` ranges are checked against. */
export const SERVICE_VERSION: string = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).version;
