/**
 * Rows as plain objects that share one shape per statement (issue 34). node:sqlite makes each row
 * it returns as an object a dictionary-mode object with a hidden class of its own, and V8 allocates
 * hidden classes in the old generation, which only a full collection frees: a first sync of 100k
 * snippets reads about 15 rows a snippet, 90 MB of them, and the host's heap grew by that much
 * before V8 next collected it. Read as arrays (`setReturnArrays`) and named here, every row of a
 * statement is an ordinary object of the same hidden class, made in the young generation and
 * freed by the next scavenge; reading so is also faster (about 1.1 against 1.4 µs for a row of 8
 * columns).
 *
 * The rows read as node:sqlite's do (the same own properties, in the same order), but for their
 * prototype: Object.prototype instead of none. A statement naming a column `__proto__` keeps
 * node:sqlite's own rows (assigning that name would set the prototype).
 */
import type { SQLInputValue, SQLOutputValue, StatementColumnMetadata, StatementResultingChanges, StatementSync } from 'node:sqlite';

type Row = Record<string, SQLOutputValue>;
/** What a statement is bound to: positional values, or named ones (an object) first. */
type Bound = Array<SQLInputValue | Record<string, SQLInputValue>>;

/** `statement`, its rows made as objects of one shape (see above); undefined when it cannot be (then node:sqlite's rows stand). */
export function sharedShapeRows(statement: StatementSync): StatementSync | undefined {
  // Node before 22.16 (an older VS Code's Electron) reads rows as objects only.
  if (typeof statement.setReturnArrays !== 'function') return undefined;
  if (statement.columns().some((column) => column.name === '__proto__')) return undefined;
  statement.setReturnArrays(true);
  return new SharedShapeStatement(statement);
}

class SharedShapeStatement implements StatementSync {
  private readonly statement: StatementSync;
  private names: readonly string[];

  constructor(statement: StatementSync) {
    this.statement = statement;
    this.names = statement.columns().map((column) => column.name);
  }

  get expandedSQL(): string {
    return this.statement.expandedSQL;
  }

  get sourceSQL(): string {
    return this.statement.sourceSQL;
  }

  get(...bound: Bound): Row | undefined {
    const values = this.statement.get(...positional(bound));
    return values === undefined ? undefined : this.row(values);
  }

  all(...bound: Bound): Row[] {
    return this.statement.all(...positional(bound)).map((values) => this.row(values));
  }

  *iterate(...bound: Bound): NodeJS.Iterator<Row> {
    for (const values of this.statement.iterate(...positional(bound))) yield this.row(values);
  }

  run(...bound: Bound): StatementResultingChanges {
    return this.statement.run(...positional(bound));
  }

  columns(): StatementColumnMetadata[] {
    return this.statement.columns();
  }

  setAllowBareNamedParameters(enabled: boolean): void {
    this.statement.setAllowBareNamedParameters(enabled);
  }

  setAllowUnknownNamedParameters(enabled: boolean): void {
    this.statement.setAllowUnknownNamedParameters(enabled);
  }

  setReadBigInts(enabled: boolean): void {
    this.statement.setReadBigInts(enabled);
  }

  /** Rows stay objects: every caller of the store reads them by name. */
  setReturnArrays(): void {
    throw new TypeError('The store reads rows as objects (sharedShapeRows.ts)');
  }

  /**
   * The row named by the statement's columns, each set in the same order from an empty object: V8
   * gives every row the same hidden class. SQLite prepares a statement again when the schema
   * changed, which may change what `SELECT *` returns: the names are read again then.
   */
  private row(values: Row): Row {
    // A Node whose method left setReturnArrays aside (iterate() in some releases) made the row itself.
    if (!Array.isArray(values)) return values;
    // What setReturnArrays makes of a row; node:sqlite's types know rows as objects only.
    const cells: readonly SQLOutputValue[] = values;
    if (cells.length !== this.names.length) this.names = this.statement.columns().map((column) => column.name);
    const row: Row = {};
    for (let i = 0; i < cells.length; i++) row[this.names[i]!] = cells[i] as SQLOutputValue;
    return row;
  }
}

/**
 * node:sqlite's methods take named parameters (an object) first, then positional ones; TypeScript
 * only knows them as two overloads, so both are handed on as one list.
 */
function positional(bound: Bound): SQLInputValue[] {
  return bound as SQLInputValue[];
}
