import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); CI installs it, a developer's machine may not have it. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync) ?? null;

/**
 * Browser tests run wherever Chromium is installed, and always in CI (where its absence is a failure,
 * not a skip): `npm test` still passes on a fresh machine without it.
 */
export const browserAvailable = CHROMIUM !== null || process.env.CI === 'true';

export function launch(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('Chromium is not installed: apt-get install chromium');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // as root, without a sandbox; and no background traffic on this machine's closed network
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
