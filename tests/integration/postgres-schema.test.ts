/**
 * PostgreSQL's migrations give the schema SQLite's give (migrations/index.ts,
 * docs/decisions/0051-postgres-second-store.md): the same tables, columns (name, nullability, type
 * up to each database's spelling), primary keys, unique indexes, foreign keys and seeded rows.
 * Runs in both passes: on a PostgreSQL of its own in the SQLite pass.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type DB } from "#db/connection.server";
import { describeWithPostgres } from "./with-postgres";
import { testPostgres, uniqueDatabaseName, type TestPostgres } from "../postgres";

interface Schema {
  tables: Record<
    string,
    {
      columns: string[];
      primaryKey: string[];
      unique: string[];
      foreignKeys: string[];
    }
  >;
}

/** One spelling for the types both databases mean alike (SQLite's integer is 64 bits). */
function normalType(type: string): string {
  const lower = type.toLowerCase();
  if (["integer", "bigint", "int", "int8"].includes(lower)) return "int";
  if (["real", "double precision", "float8"].includes(lower)) return "float";
  if (["blob", "bytea"].includes(lower)) return "bytes";
  if (lower === "text" || lower.startsWith("varchar") || lower.startsWith("character varying")) return "text";
  return lower;
}

const deleteRules: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

/** Tables of our own: kysely's bookkeeping and SQLite's sequence table are no part of the schema. */
const isOurs = (table: string) => !table.startsWith("kysely_") && !table.startsWith("sqlite_");

async function sqliteSchema(db: DB): Promise<Schema> {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
  const schema: Schema = { tables: {} };
  for (const { name } of tables.rows.filter((row) => isOurs(row.name))) {
    const columns = await sql<{ name: string; type: string; notnull: number; pk: number }>`select * from pragma_table_info(${name})`.execute(db);
    const indexes = await sql<{ name: string; unique: number; origin: string; partial: number }>`select * from pragma_index_list(${name})`.execute(db);
    const unique: string[] = [];
    for (const index of indexes.rows.filter((row) => row.unique === 1 && row.origin !== "pk")) {
      const keys = await sql<{ name: string | null; seqno: number }>`select * from pragma_index_info(${index.name}) order by seqno`.execute(db);
      const keyNames = keys.rows.map((key) => key.name ?? "expr").join(", ");
      // A UNIQUE in the table's definition has a name of SQLite's choosing; an index has ours.
      unique.push(index.origin === "u" ? `unique (${keyNames})` : `${index.name} (${keyNames})${index.partial ? " partial" : ""}`);
    }
    const foreignKeys = await sql<{ id: number; seq: number; table: string; from: string; to: string; on_delete: string }>`
      select * from pragma_foreign_key_list(${name}) order by id, seq`.execute(db);
    const byId = new Map<number, typeof foreignKeys.rows>();
    for (const key of foreignKeys.rows) byId.set(key.id, [...(byId.get(key.id) ?? []), key]);
    schema.tables[name] = {
      columns: columns.rows
        // SQLite lets a primary key other than an integer one hold null; PostgreSQL never does, nor do we.
        .map((column) => `${column.name} ${normalType(column.type)}${column.notnull || column.pk ? " not null" : ""}`)
        .sort(),
      primaryKey: columns.rows
        .filter((column) => column.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((column) => column.name),
      unique: unique.sort(),
      foreignKeys: [...byId.values()]
        .map(
          (keys) =>
            `(${keys.map((key) => key.from).join(", ")}) -> ${keys[0].table} (${keys.map((key) => key.to).join(", ")}) on delete ${keys[0].on_delete.toLowerCase()}`,
        )
        .sort(),
    };
  }
  return schema;
}

async function postgresSchema(db: DB): Promise<Schema> {
  const columns = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>`
    select table_name, column_name, data_type, is_nullable from information_schema.columns where table_schema = 'public'`.execute(db);
  const indexes = await sql<{ table_name: string; name: string; primary: boolean; partial: boolean; constraint_backed: boolean; keys: string[] }>`
    select t.relname as table_name, i.relname as name, ix.indisprimary as primary, ix.indpred is not null as partial,
      exists (select 1 from pg_constraint c where c.conindid = ix.indexrelid and c.contype = 'u') as constraint_backed,
      array(
        select case when k.attnum = 0 then 'expr' else a.attname::text end
        from unnest(ix.indkey::int2[]) with ordinality as k(attnum, ord)
        left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
        order by k.ord
      ) as keys
    from pg_index ix
    join pg_class i on i.oid = ix.indexrelid
    join pg_class t on t.oid = ix.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = 'public' and ix.indisunique`.execute(db);
  const foreignKeys = await sql<{ table_name: string; target: string; from_columns: string[]; to_columns: string[]; on_delete: string }>`
    select t.relname as table_name, target.relname as target, c.confdeltype as on_delete,
      array(select a.attname::text from unnest(c.conkey) with ordinality as k(attnum, ord) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.ord) as from_columns,
      array(select a.attname::text from unnest(c.confkey) with ordinality as k(attnum, ord) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.attnum order by k.ord) as to_columns
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_class target on target.oid = c.confrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = 'public' and c.contype = 'f'`.execute(db);
  const schema: Schema = { tables: {} };
  const table = (name: string) => (schema.tables[name] ??= { columns: [], primaryKey: [], unique: [], foreignKeys: [] });
  for (const column of columns.rows.filter((row) => isOurs(row.table_name))) {
    table(column.table_name).columns.push(`${column.column_name} ${normalType(column.data_type)}${column.is_nullable === "NO" ? " not null" : ""}`);
  }
  for (const index of indexes.rows.filter((row) => isOurs(row.table_name))) {
    const keys = index.keys.join(", ");
    if (index.primary) table(index.table_name).primaryKey = index.keys;
    else table(index.table_name).unique.push(index.constraint_backed ? `unique (${keys})` : `${index.name} (${keys})${index.partial ? " partial" : ""}`);
  }
  for (const key of foreignKeys.rows.filter((row) => isOurs(row.table_name))) {
    table(key.table_name).foreignKeys.push(
      `(${key.from_columns.join(", ")}) -> ${key.target} (${key.to_columns.join(", ")}) on delete ${deleteRules[key.on_delete]}`,
    );
  }
  for (const entry of Object.values(schema.tables)) {
    entry.columns.sort();
    entry.unique.sort();
    entry.foreignKeys.sort();
  }
  return schema;
}

/** The rows the migrations seed, without the values of the moment (ids, times). */
async function seededRows(db: DB) {
  const plans = await db
    .selectFrom("plans")
    .select(["name", "description", "price_cents", "currency", "ai_quiz_limit", "features", "sort_order"])
    .orderBy("sort_order")
    .execute();
  const users = await db.selectFrom("users").select(["username", "display_name", "is_system", "is_guest", "subscription_tier"]).orderBy("username").execute();
  return { plans, users };
}

describeWithPostgres("the PostgreSQL migrations", () => {
  let postgres: TestPostgres;
  let sqlite: DB;
  let pg: DB;
  let databaseName: string;

  beforeAll(async () => {
    postgres = await testPostgres();
    databaseName = uniqueDatabaseName("schema");
    // A database made empty, not from the migrated template: this test runs the migrations itself.
    pg = openDatabase(await postgres.createDatabase(databaseName));
    sqlite = openDatabase(":memory:");
  });
  afterAll(async () => {
    await pg?.destroy();
    await sqlite?.destroy();
    await postgres?.dropDatabase(databaseName);
    await postgres?.release();
  });

  it("give the tables, columns, keys, unique indexes and foreign keys SQLite's give, and seed the same rows", async () => {
    await migrateToLatest(sqlite);
    await migrateToLatest(pg);
    const expected = await sqliteSchema(sqlite);
    const actual = await postgresSchema(pg);
    expect(Object.keys(expected.tables).length).toBeGreaterThan(10);
    expect(Object.keys(actual.tables).sort()).toEqual(Object.keys(expected.tables).sort());
    for (const name of Object.keys(expected.tables)) {
      expect({ table: name, ...actual.tables[name] }).toEqual({ table: name, ...expected.tables[name] });
    }
    expect(await seededRows(pg)).toEqual(await seededRows(sqlite));
  });

  it("have nothing more to apply the second time", async () => {
    expect(await migrateToLatest(pg)).toEqual([]);
  });
});
