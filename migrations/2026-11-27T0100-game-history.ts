import { sql, type Kysely } from "kysely";

/**
 * My Games and the report retention (issue 17): a host's games are found by the account that
 * hosted them, or by the hosting browser for a game hosted without one, newest first; the
 * retention sweep finds finished games by when they ended. Nothing new is stored: the report is
 * computed from the answers, players and question list a game already keeps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index games_host_created_idx on games (host_id, created_at) where host_id is not null`.execute(db);
  await sql`create index games_creator_client_created_idx on games (creator_client_id, created_at) where host_id is null`.execute(db);
  await sql`create index games_finished_ended_idx on games (ended_at) where status = 'finished'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index games_finished_ended_idx`.execute(db);
  await sql`drop index games_creator_client_created_idx`.execute(db);
  await sql`drop index games_host_created_idx`.execute(db);
}
