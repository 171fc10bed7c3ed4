/**
 * The few places where SQLite's SQL and PostgreSQL's differ, as small builders the models call so
 * that they stay one query for both (docs/decisions/0051-postgres-second-store.md). Each helper
 * gives the same result on both: the same JSON text, the same rows, the same types.
 */
import { sql, type Expression, type RawBuilder, type SelectQueryBuilder } from "kysely";

export type SqlDialect = "sqlite" | "postgres";

type Compiles = Parameters<RawBuilder<unknown>["compile"]>[0];

/** A Kysely instance or a transaction on one, whatever its tables' types (a migration's `Kysely<any>` too). */
export type Queryable = Compiles & { withoutPlugins(): Compiles };

const dialects = new WeakMap<Queryable, SqlDialect>();

/**
 * Which database `db` (or a transaction on it) talks to, told by kysely's public compiler: a
 * parameter is `$1` in PostgreSQL and `?` in SQLite. Compiled without plugins, so a plugin that
 * counts queries (tests/unit/game-report.test.ts) does not count this one, which never runs.
 */
export function dialectOf(db: Queryable): SqlDialect {
  let dialect = dialects.get(db);
  if (dialect === undefined) {
    dialect = sql`${0}`.compile(db.withoutPlugins()).sql.startsWith("$") ? "postgres" : "sqlite";
    dialects.set(db, dialect);
  }
  return dialect;
}

export function isPostgres(db: Queryable): boolean {
  return dialectOf(db) === "postgres";
}

type Value = Expression<unknown>;

/**
 * The aggregate of `value` over the group's rows as JSON array text, `[]` for no rows, in `orderBy`'s
 * order when given (SQLite's json_group_array, PostgreSQL's json_agg, which gives null for no rows).
 */
export function jsonArrayAgg(db: Queryable, value: Value, orderBy?: Value): RawBuilder<string> {
  const order = orderBy ? sql` order by ${orderBy}` : sql``;
  return isPostgres(db) ? sql<string>`coalesce(json_agg(${value}${order})::text, '[]')` : sql<string>`json_group_array(${value}${order})`;
}

/** A JSON object of these keys and values, to nest in jsonArrayAgg (json_object / json_build_object). */
export function jsonObject(db: Queryable, entries: Record<string, Value>): RawBuilder<unknown> {
  // The keys are constants of the query: literals, since PostgreSQL cannot type a parameter here.
  const pairs = sql.join(Object.entries(entries).map(([key, value]) => sql`${sql.lit(key)}, ${value}`));
  return isPostgres(db) ? sql`json_build_object(${pairs})` : sql`json_object(${pairs})`;
}

/** Whether the JSON text in `column` holds an array. */
export function isJsonArray(db: Queryable, column: Value): RawBuilder<boolean> {
  return isPostgres(db) ? sql<boolean>`jsonb_typeof(${column}::jsonb) = 'array'` : sql<boolean>`json_type(${column}) = 'array'`;
}

/** Whether the JSON text in `column` holds a string or a number (not an array, object, boolean or null). */
export function isJsonStringOrNumber(db: Queryable, column: Value): RawBuilder<boolean> {
  return isPostgres(db)
    ? sql<boolean>`jsonb_typeof(${column}::jsonb) in ('string', 'number')`
    : sql<boolean>`json_type(${column}) in ('text', 'integer', 'real')`;
}

/**
 * A table of the whole numbers in the JSON array text `column`, one row each in a column `value`,
 * to join beside the row that holds the array (`from answers, ${jsonArrayIntegers(...)}`); no rows
 * when `column` is not an array. PostgreSQL's function would fail on a non-array, and may run before
 * the query's where clause has ruled such rows out, hence the guard.
 */
export function jsonArrayIntegers(db: Queryable, column: Value, alias: string): RawBuilder<unknown> {
  const name = sql.id(alias);
  return isPostgres(db)
    ? sql`lateral (
        select element::bigint as value
        from jsonb_array_elements_text(case when jsonb_typeof(${column}::jsonb) = 'array' then ${column}::jsonb else '[]'::jsonb end) as element
      ) as ${name}`
    : sql`json_each(case when json_type(${column}) = 'array' then ${column} else '[]' end) as ${name}`;
}

/** The SQL types a column of `rowsTable` may hold. */
export type RowsColumnType = "bigint" | "double precision" | "text";

/**
 * A table of these rows, to select from, join (`update ... from (${rowsTable}) as changed`) or insert
 * (`insert into t (...) select * from (${rowsTable}) as rows`); its columns are `column1`, `column2`,
 * ... in both databases. SQLite gets `values (...), (...)`, a parameter a cell. PostgreSQL gets
 * `unnest` of one array a column, each cast to its column's type: a handful of parameters instead of
 * thousands, which the database parses and plans in a fraction of the time, and which cost this
 * process less to build (docs/decisions/0058-one-statement-per-table.md).
 */
export function rowsTable(db: Queryable, types: RowsColumnType[], rows: unknown[][]): RawBuilder<unknown> {
  if (isPostgres(db)) {
    const columns = types.map((type, index) => sql`cast(${rows.map((row) => row[index])} as ${sql.raw(type)}[])`);
    const names = types.map((_, index) => sql.raw(`column${index + 1}`));
    return sql`select * from unnest(${sql.join(columns)}) as unnested(${sql.join(names)})`;
  }
  return sql`values ${sql.join(rows.map((row) => sql`(${sql.join(row.map((value) => sql`${value}`))})`))}`;
}

/**
 * The query with its rows locked until the transaction ends (`for update`), so another connection's
 * transaction that wants them waits: PostgreSQL runs transactions side by side. SQLite has no such
 * clause and needs none: one connection writes at a time, and this process's transactions on it
 * run one after another.
 */
export function lockedForUpdate<DB, TB extends keyof DB, O>(db: Queryable, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forUpdate() : query;
}
