/** scripts/local-postgres.ts: a real PostgreSQL in a temporary folder, databases copied from a template, all gone at stop. */
import fs from "node:fs";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { connectToLocalPostgres, startLocalPostgres, type LocalPostgres } from "../../scripts/local-postgres";
import { describeWithPostgres } from "./with-postgres";

describeWithPostgres("a local PostgreSQL", () => {
  let postgres: LocalPostgres | undefined;
  afterAll(async () => {
    await postgres?.stop();
  });

  it("starts on 127.0.0.1, copies a template for another process's databases and removes its folder when stopped", async () => {
    postgres = await startLocalPostgres({ fsync: false });
    expect(postgres.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);

    const templateUrl = await postgres.createDatabase("launcher_template");
    const template = new pg.Client(templateUrl);
    await template.connect();
    await template.query("create table answers (id bigint primary key, text text not null)");
    await template.query("insert into answers values (1, 'Paris')");
    await template.end();

    // What another process does with the URL it was handed.
    const elsewhere = connectToLocalPostgres(postgres.url);
    const urls = await Promise.all(["launcher_a", "launcher_b"].map((name) => elsewhere.createDatabase(name, { template: "launcher_template" })));
    const copy = new pg.Client(urls[1]);
    await copy.connect();
    expect((await copy.query("select text from answers")).rows).toEqual([{ text: "Paris" }]);
    copy.on("error", () => {}); // the drop below ends this connection
    await elsewhere.dropDatabase("launcher_b");
    await copy.end().catch(() => {});
    const maintenance = new pg.Client(postgres.url);
    await maintenance.connect();
    const listed = await maintenance.query("select datname from pg_database where datname like 'launcher_%' order by 1");
    await maintenance.end();
    expect(listed.rows.map((row) => row.datname)).toEqual(["launcher_a", "launcher_template"]);
    await elsewhere.close();

    const dir = postgres.dir;
    await postgres.stop();
    postgres = undefined;
    expect(fs.existsSync(dir)).toBe(false);
  });

  it("refuses a database name that is not a plain identifier", async () => {
    const databases = connectToLocalPostgres("postgres://postgres@127.0.0.1:1/postgres");
    await expect(databases.createDatabase('x"; drop database postgres; --')).rejects.toThrow(/lowercase letters/);
    await databases.close();
  });
});
