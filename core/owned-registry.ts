/**
 * A keyed collection whose entries remember who added them, so that everything a plugin contributed
 * (routes, AJAX actions, jobs, capabilities) can be listed, checked for clashes and removed at once.
 */
export class OwnedRegistry<T> {
  private readonly entries = new Map<string, { owner: string; item: T }>();
  private readonly what: string;

  constructor(what: string) {
    this.what = what;
  }

  add(owner: string, key: string, item: T): void {
    const prior = this.entries.get(key);
    if (prior) throw new Error(`${this.what} ${key} of ${owner} is already registered by ${prior.owner}`);
    this.entries.set(key, { owner, item });
  }

  get(key: string): T | undefined {
    return this.entries.get(key)?.item;
  }

  ownerOf(key: string): string | undefined {
    return this.entries.get(key)?.owner;
  }

  removeOwner(owner: string): string[] {
    const removed: string[] = [];
    for (const [key, e] of this.entries) {
      if (e.owner === owner) {
        this.entries.delete(key);
        removed.push(key);
      }
    }
    return removed;
  }

  values(): T[] {
    return [...this.entries.values()].map((e) => e.item);
  }

  entriesWithOwner(): Array<{ key: string; owner: string; item: T }> {
    return [...this.entries].map(([key, e]) => ({ key, owner: e.owner, item: e.item }));
  }
}
