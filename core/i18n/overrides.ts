import type { Actor } from '../audit/audit.ts';
import { audit } from '../audit/audit.ts';
import { followFeed, notifyChange, type Feed } from '../db/change-feed.ts';
import type { Database } from '../db/database.ts';
import type { Messages } from './catalogue.ts';
import type { ShippedLocale } from './locale-tag.ts';

/**
 * The site's own wording (`billing_translations`): per shipped language, a text for some keys that
 * prints instead of the shipped one. Like the options, cached in memory while the change feed is live
 * (every write notifies all instances on commit and each forgets its copy); without a feed every read
 * goes to the database. So an override holds on every instance from its next request.
 */
export class TranslationOverrides {
  readonly #db: Database;
  #cached: Map<string, Messages> | null = null;
  #generation = 0;
  #feed: Feed | null = null;

  constructor(db: Database) {
    this.#db = db;
  }

  attachFeed(feed: Feed): () => void {
    return followFeed(feed, 'translations', {
      attach: (f) => (this.#feed = f),
      forget: () => {
        this.#cached = null;
        this.#generation++;
      },
    });
  }

  /** The overrides of one language, `{key: text}`. */
  async of(locale: ShippedLocale): Promise<Messages> {
    if (this.#feed?.live) {
      if (!this.#cached) {
        const gen = this.#generation;
        const all = group(await this.#db.query<Row>('select locale, key, text from billing_translations'));
        if (gen === this.#generation && this.#feed.live) this.#cached = all;
        return all.get(locale) ?? {};
      }
      return this.#cached.get(locale) ?? {};
    }
    return (
      group(await this.#db.query<Row>('select locale, key, text from billing_translations where locale = $1', [locale])).get(locale) ?? {}
    );
  }

  /** Sets (text) or clears (null) overrides of one language, checked by the caller, in one transaction. */
  async set(locale: ShippedLocale, changes: Readonly<Record<string, string | null>>, actor: Actor): Promise<void> {
    await this.#db.transaction(async (tx) => {
      for (const [key, text] of Object.entries(changes)) {
        if (text === null) await tx.query('delete from billing_translations where locale = $1 and key = $2', [locale, key]);
        else
          await tx.query(
            `insert into billing_translations (locale, key, text) values ($1, $2, $3)
               on conflict (locale, key) do update set text = excluded.text, updated_at = now()`,
            [locale, key, text],
          );
      }
      await audit(tx, actor, {
        action: 'translations.update',
        objectType: 'translations',
        objectId: locale,
        details: { keys: Object.keys(changes) },
      });
      await notifyChange(tx, 'translations');
    });
    // this instance reads its own change at once; the others have heard of it before the answer leaves
    this.#cached = null;
    this.#generation++;
    await this.#feed?.barrier();
  }
}

interface Row {
  locale: string;
  key: string;
  text: string;
}

function group(rows: Row[]): Map<string, Messages> {
  const out = new Map<string, Record<string, string>>();
  for (const r of rows) {
    let m = out.get(r.locale);
    if (!m) out.set(r.locale, (m = {}));
    m[r.key] = r.text;
  }
  return out;
}
