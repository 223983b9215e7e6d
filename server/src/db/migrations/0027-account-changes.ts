import { type Migration, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import type { MigrationDb } from './index.ts';

/**
 * PostgreSQL only (issue 31, docs/decisions/0032): every instance keeps the sessions it has read
 * in memory, so each must hear when one may no longer be served. The database says so itself: a
 * change of an account's fields that a request's rights rest on, an account deleted, or sessions
 * ended (signing out, a new password, a deletion) writes an `account_changed` change to the change
 * log in the same transaction, which 0011's commit trigger numbers and NOTIFYs like any other.
 * Written by triggers rather than by each write, so that no way of changing an account — the
 * routes, a script, an operator's SQL — can leave a stale session served.
 */

/**
 * What no right rests on: compared without them, so a position report (every few seconds) or the
 * row lock trips take (`set id = id`) changes nothing. Named in the function's body, not in the
 * trigger: a column a trigger names cannot be dropped (0018's down, a future migration).
 */
const NOT_RIGHTS = ["'last_lat'", "'last_lng'", "'last_accuracy'", "'located_at'", "'updated_at'"].join(', ');

const changeOf = (accountId: string) =>
  `-nextval('change_log_placeholder_seq'), (extract(epoch from clock_timestamp()) * 1000)::bigint, null,
   json_build_object('kind', 'account_changed', 'accountId', ${accountId})::text`;

export const accountChanges = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    if (dialect !== 'postgres') return;
    await sql
      .raw(
        `create function account_changed_log() returns trigger language plpgsql as $$
         begin
           if tg_op = 'UPDATE'
              and to_jsonb(old) - array[${NOT_RIGHTS}]::text[] = to_jsonb(new) - array[${NOT_RIGHTS}]::text[] then
             return null;
           end if;
           insert into change_log (id, created_ms, request_id, change) values (${changeOf('old.id')});
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger accounts_changed_log after update on accounts
         for each row execute function account_changed_log()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger accounts_deleted_log after delete on accounts for each row execute function account_changed_log()`,
      )
      .execute(db);
    // One change per account whose sessions a statement ended (a new password ends all but one).
    await sql
      .raw(
        `create function sessions_ended_log() returns trigger language plpgsql as $$
         begin
           insert into change_log (id, created_ms, request_id, change)
           select ${changeOf('ended.account_id')} from (select distinct account_id from gone) as ended;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger sessions_ended_log after delete on sessions referencing old table as gone
         for each statement execute function sessions_ended_log()`,
      )
      .execute(db);
  },
  async down(db: MigrationDb) {
    if (dialect !== 'postgres') return;
    await sql.raw('drop trigger sessions_ended_log on sessions').execute(db);
    await sql.raw('drop function sessions_ended_log').execute(db);
    await sql.raw('drop trigger accounts_deleted_log on accounts').execute(db);
    await sql.raw('drop trigger accounts_changed_log on accounts').execute(db);
    await sql.raw('drop function account_changed_log').execute(db);
  },
});
