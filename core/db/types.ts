export type Row = Record<string, any>;

/**
 * A hot statement, prepared once per connection under its name (PostgreSQL parses and plans it once,
 * then only binds values). Made with `statement()`; any `query` takes one in place of SQL text.
 */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

/** A unit of work: queries inside one transaction, and what to do once it has committed. */
export interface Tx {
  query<T = Row>(sql: string | Statement, params?: readonly unknown[]): Promise<T[]>;
  /** Runs after COMMIT (never after a rollback): this is where actions fire (docs/plugins.md). */
  afterCommit(fn: () => unknown): void;
}
