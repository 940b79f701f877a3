import { sql, type Kysely } from "kysely";
import type { AppMigration, MigrationDialect as Dialect } from "./types";

/*
 * One identity for a submission (decision 012, third step).
 *
 * The kind tables keep only their own fields: status, submitted_at, updated_at and
 * submitted_by live in `submissions` alone (0030 copied them there; the store stopped writing
 * them to the kind rows). Their indexes (0002, 0007, 0009, 0017) go first, with 0009's name
 * and e-mail indexes, which only the list of before 0030 read. On SQLite the four
 * tables are made anew (nothing references them), which also makes `submission_id` not null
 * there, as it is on PostgreSQL; PostgreSQL drops the columns in place.
 *
 * The member link gets foreign keys, all `on delete set null`, never cascade: deleting a
 * member leaves the applications they came from (and what the members sent), deleting an
 * application leaves its member.
 * - `applications.member_user_id references users (id)`. The claim that stood in it while a
 *   member was being made (-1) is a column of its own, `member_claimed_at`; a link to a user
 *   already gone (and a claim left behind) is cleared first.
 * - `users.application_id` is dropped: it held the same link the other way round (the first
 *   application a member was made from or linked to), now read from applications.member_user_id
 *   (the lowest such application). A link held only there is copied over first.
 * - `submissions.submitted_by references users (id)`: a deleted user's submissions stay, their
 *   submitter cleared (as applications.submitted_by always was). SQLite cannot add a foreign
 *   key to a column and `submissions` cannot be made anew (dropping it would delete, through
 *   the cascades, every kind row, note and assignment): the column is added anew with the key,
 *   filled, and takes the old one's name.
 *
 * Old instances write the dropped columns: stop them before this runs (docs/deployment.md).
 * On PostgreSQL the tables are locked meanwhile.
 */
export const m0031_kind_fields_and_member_links: AppMigration = {
  async up(db, dialect) {
    const run = async (trx: Kysely<any>) => {
      if (dialect === "postgres") {
        await sql`lock table users, submissions, contact_messages, cpa_requests, homeowner_material_requests, applications in access exclusive mode`.execute(
          trx,
        );
      }
      await migrate(trx, dialect);
    };
    if (db.isTransaction) await run(db);
    else await db.transaction().execute(run);
  },
};

const exec = async (db: Kysely<any>, statements: string[]) => {
  for (const statement of statements) await sql.raw(statement).execute(db);
};

const TABLES = ["contact_messages", "cpa_requests", "homeowner_material_requests", "applications"] as const;
type Table = (typeof TABLES)[number];

/** The columns that move out of the kind tables (submissions has them since 0030). */
const MOVED = ["status", "submitted_at", "updated_at", "submitted_by"];

/** Each kind's own columns on SQLite, as 0002, 0007 and 0016 made them, in their order. */
const OWN: Record<Table, string[]> = {
  contact_messages: [`"name" text not null`, `"email" text not null`, `"phone" text`, `"subject" text not null`, `"message" text not null`],
  cpa_requests: [
    `"first_name" text not null`,
    `"last_name" text`,
    `"email" text not null`,
    `"phone" text`,
    `"firm_name" text`,
    `"city" text`,
    `"state" text`,
    `"zip" text`,
    `"notes" text`,
    `"member_id" text`,
  ],
  homeowner_material_requests: [
    `"first_name" text not null`,
    `"last_name" text`,
    `"email" text not null`,
    `"phone" text`,
    `"address1" text`,
    `"address2" text`,
    `"city" text`,
    `"state" text`,
    `"zip" text`,
    `"materials_requested" text`,
    `"notes" text`,
    `"member_id" text`,
  ],
  applications: [
    `"case_number" text`,
    `"amount_of_coverage" text not null`,
    `"applicant_name" text not null`,
    `"co_applicant_name" text`,
    `"dob" text not null`,
    `"co_dob" text`,
    `"gender" text not null`,
    `"co_gender" text`,
    `"email" text not null`,
    `"co_email" text`,
    `"phone" text not null`,
    `"co_phone" text`,
    `"todays_date" text not null`,
    `"address1" text`,
    `"address2" text`,
    `"city" text`,
    `"state" text`,
    `"zip" text`,
    `"beneficiary_name" text`,
    `"beneficiary_relationship" text`,
    `"beneficiary_phone" text`,
    `"beneficiary_email" text`,
    `"payment_monthly_billing" integer default 0 not null`,
    `"payment_automatic_checking" integer default 0 not null`,
    `"payment_use_credit_card" integer default 0 not null`,
    `"cc_name_on_card" text`,
    `"cc_cardholder_signature" text`,
    `"cc_process_date" text`,
    `"confirm_accuracy" integer default 0 not null`,
    `"applicant_signature" text not null`,
    `"co_applicant_signature" text`,
    `"ach_applicant_signature" text`,
    `"ach_co_applicant_signature" text`,
    `"member_user_id" integer references users (id) on delete set null`,
    `"welcome_sent_at" text`,
  ],
};

const SUBMISSION_ID = `"submission_id" integer not null references submissions (id) on delete cascade`;
const columnName = (definition: string) => definition.slice(1, definition.indexOf('"', 1));

async function migrate(db: Kysely<any>, dialect: Dialect) {
  // The indexes over the moving columns go first (SQLite drops no indexed column), and the
  // old list's name and e-mail sort indexes (0009): the list reads submissions since 0030.
  await exec(
    db,
    TABLES.flatMap((t) =>
      ["submitted_at", "status_submitted_at", "submitted_by", "name", "email"].map((i) => `drop index if exists ${t}_${i}_idx`),
    ),
  );

  // Links to users already gone (no key kept them) and claims left behind are cleared; a
  // member's link held only on the user's side is copied to the application.
  await exec(db, [
    `update applications set member_user_id = null
       where member_user_id is not null and not exists (select 1 from users u where u.id = applications.member_user_id)`,
    `update applications set member_user_id = (select min(u.id) from users u where u.application_id = applications.id)
       where member_user_id is null and exists (select 1 from users u where u.application_id = applications.id)`,
    `update submissions set submitted_by = null
       where submitted_by is not null and not exists (select 1 from users u where u.id = submissions.submitted_by)`,
  ]);

  if (dialect === "postgres") {
    for (const t of TABLES) await exec(db, [`alter table ${t} ${MOVED.map((c) => `drop column ${c}`).join(", ")}`]);
    await exec(db, [
      `alter table applications add column member_claimed_at text`,
      `alter table applications add constraint applications_member_user_fk
         foreign key (member_user_id) references users (id) on delete set null`,
      `alter table submissions add constraint submissions_submitted_by_fk
         foreign key (submitted_by) references users (id) on delete set null`,
    ]);
  } else {
    for (const t of TABLES) {
      const own = [...OWN[t], ...(t === "applications" ? [`"member_claimed_at" text`] : [])];
      const copied = ["id", ...OWN[t].map(columnName), "submission_id"].map((c) => `"${c}"`).join(", ");
      await exec(db, [
        `create table ${t}_0031 ("id" integer primary key autoincrement, ${own.join(", ")}, ${SUBMISSION_ID})`,
        `insert into ${t}_0031 (${copied}) select ${copied} from ${t}`,
        `drop table ${t}`,
        `alter table ${t}_0031 rename to ${t}`,
        `create unique index ${t}_submission_idx on ${t} (submission_id)`,
      ]);
    }
    await exec(db, [
      `drop index submissions_submitted_by_idx`,
      `alter table submissions add column submitted_by_0031 integer references users (id) on delete set null`,
      `update submissions set submitted_by_0031 = submitted_by where submitted_by is not null`,
      `alter table submissions drop column submitted_by`,
      `alter table submissions rename column submitted_by_0031 to submitted_by`,
      // As 0030 made it: a member's account lists what they sent.
      `create index submissions_submitted_by_idx on submissions (submitted_by, id)`,
    ]);
  }

  await exec(db, [
    `alter table users drop column application_id`,
    // A member's applications (the account, the members list), and a deletion's set null.
    `create index applications_member_user_idx on applications (member_user_id)`,
  ]);
}
