import { sql, type Kysely } from "kysely";

/**
 * The questions table without its CHECK on `kind` (docs/decisions/0045-question-kind-registry.md):
 * the kinds are a registry in the application, which checks a kind where a question comes in and
 * where it is read, so a new kind needs no migration. Every other column, constraint, default and
 * index stays as 2026-11-25T0000-question-kinds made them.
 */
const KINDS_CHECKED_UNTIL_NOW = "('choice', 'trueFalse', 'multiSelect', 'typeAnswer', 'closestNumber', 'poll')";

/** SQLite changes a CHECK only by rebuilding the table (its documented twelve steps), as that migration did. */
async function rebuildQuestions(db: Kysely<any>, kindColumn: ReturnType<typeof sql.raw>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`
        create table questions_new (
          id integer primary key autoincrement,
          quiz_id integer not null references quizzes (id) on delete cascade,
          text text not null,
          answers text not null,
          correct_answer_index integer not null check (correct_answer_index between -1 and 5),
          "order" integer not null,
          retired_at integer,
          ${kindColumn},
          correct_indexes text,
          accepted_answers text,
          correct_number real,
          time_limit integer check (time_limit is null or time_limit between 5 and 240),
          points text not null default 'standard' check (points in ('none', 'standard', 'double')),
          image_id text
        )`.execute(trx);
      const columns = sql.raw(
        'id, quiz_id, text, answers, correct_answer_index, "order", retired_at, kind, correct_indexes, accepted_answers, correct_number, time_limit, points, image_id',
      );
      await sql`insert into questions_new (${columns}) select ${columns} from questions`.execute(trx);
      await sql`drop table questions`.execute(trx);
      await sql`alter table questions_new rename to questions`.execute(trx);
      await sql`create index questions_quiz_order_idx on questions (quiz_id, "order")`.execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`Rebuilding questions broke ${broken.rows.length} references.`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuildQuestions(db, sql.raw("kind text not null default 'choice'"));
}

export async function down(db: Kysely<any>): Promise<void> {
  // Questions of kinds added since cannot go back to the checked table; the rest keep their rows.
  await sql`delete from questions where kind not in ${sql.raw(KINDS_CHECKED_UNTIL_NOW)}`.execute(db);
  await rebuildQuestions(db, sql.raw(`kind text not null default 'choice'\n            check (kind in ${KINDS_CHECKED_UNTIL_NOW})`));
}
