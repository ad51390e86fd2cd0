import { createHash } from 'node:crypto';
import { Router } from 'express';
import { OwnedRegistry } from '../owned-registry.ts';

/** Where units' assets are served: the service's own origin, so the pages' `script-src 'self'` allows them. */
export const ASSET_PREFIX = '/billing/assets/';

/**
 * A static file a plugin or module serves, declared as data (`assets: [{ name, type, body }]`): the
 * pad script of the signature addon, a stylesheet. Served at `/billing/assets/<name>` with its type,
 * `nosniff`, an ETag of its bytes and an hour's caching; a plugin needs no web framework for it.
 */
export interface AssetDeclaration {
  /** The file name under /billing/assets/ (letters, digits, `.`, `-`, `_`). */
  name: string;
  /** Its media type, e.g. `text/javascript; charset=utf-8`. */
  type: string;
  body: string | Buffer;
}

interface Served {
  type: string;
  body: Buffer;
  etag: string;
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/i;

/** The assets of whatever is loaded now, one router serving them all. */
export class AssetRegistry {
  private readonly files = new OwnedRegistry<Served>('asset');

  add(owner: string, asset: AssetDeclaration): void {
    if (!NAME.test(asset.name) || asset.name.includes('..'))
      throw new Error(`${owner}: asset name "${asset.name}" is not a plain file name`);
    const body = Buffer.from(asset.body);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    this.files.add(owner, asset.name, { type: asset.type, body, etag });
  }

  removeOwner(owner: string): void {
    this.files.removeOwner(owner);
  }

  router(): Router {
    const router = Router();
    router.get(`${ASSET_PREFIX}:name`, (req, res, next) => {
      const file = this.files.get(req.params.name);
      if (!file) return next();
      res.set({
        'Content-Type': file.type,
        'Cache-Control': 'public, max-age=3600',
        'X-Content-Type-Options': 'nosniff',
        ETag: file.etag,
      });
      if (req.headers['if-none-match'] === file.etag) return void res.status(304).end();
      res.end(file.body);
    });
    return router;
  }
}
