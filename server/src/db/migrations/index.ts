import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.ts';
import { accountsAndSessions } from './0001-accounts-and-sessions.ts';
import { parcels } from './0002-parcels.ts';
import { backOfficeIndexes } from './0003-back-office-indexes.ts';
import { mapCells } from './0004-map-cells.ts';
import { assignedParcelsIndex } from './0005-assigned-parcels-index.ts';
import { rateLimits } from './0006-rate-limits.ts';
import { pointsAndContacts } from './0007-points-and-contacts.ts';
import { senderKey } from './0008-sender-key.ts';
import { changeLog } from './0009-change-log.ts';
import { listAndSearchIndexes } from './0010-list-and-search-indexes.ts';
import { commitTimeTriggers } from './0011-commit-time-triggers.ts';
import { idempotencyKeys } from './0012-idempotency-keys.ts';
import { pushSubscriptions } from './0013-push-subscriptions.ts';
import { trips } from './0014-trips.ts';
import { custody } from './0015-custody.ts';
import { proofs } from './0016-proofs.ts';
import { ratings } from './0017-ratings.ts';
import { runnerTrust } from './0018-runner-trust.ts';
import { searchKey } from './0019-search-key.ts';
import { ratingModeration } from './0020-rating-moderation.ts';
import { places } from './0021-places.ts';
import { receiverMatchKeys } from './0022-receiver-match-keys.ts';
import { timetables } from './0023-timetables.ts';
import { deliveryAttempts } from './0024-delivery-attempts.ts';
import { mail } from './0025-mail.ts';
import { parcelMail } from './0026-parcel-mail.ts';
import { accountChanges } from './0027-account-changes.ts';
import { writePath } from './0028-write-path.ts';
import { mailParcel } from './0029-mail-parcel.ts';
import { accountLanguage } from './0030-account-language.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export type MigrationDb = Kysely<any>;

/**
 * Replaces `from` by `to` in a SQLite table's stored CREATE TABLE (widening a CHECK): given by the
 * store, which alone holds the writer connection it needs (database.ts).
 */
export type SqliteSchemaEdit = (table: string, from: string, to: string) => void;

/** Applied in name order at start, on both stores (DESIGN §3). */
export function migrations(dialect: Dialect, editSqliteSchema?: SqliteSchemaEdit): Record<string, Migration> {
  return {
    '0001-accounts-and-sessions': accountsAndSessions(dialect),
    '0002-parcels': parcels(dialect),
    '0003-back-office-indexes': backOfficeIndexes,
    '0004-map-cells': mapCells(dialect),
    '0005-assigned-parcels-index': assignedParcelsIndex,
    '0006-rate-limits': rateLimits(dialect),
    '0007-points-and-contacts': pointsAndContacts,
    '0008-sender-key': senderKey,
    '0009-change-log': changeLog(dialect),
    '0010-list-and-search-indexes': listAndSearchIndexes(dialect),
    '0011-commit-time-triggers': commitTimeTriggers(dialect),
    '0012-idempotency-keys': idempotencyKeys(dialect),
    '0013-push-subscriptions': pushSubscriptions(dialect),
    '0014-trips': trips(dialect),
    '0015-custody': custody(dialect),
    '0016-proofs': proofs(dialect),
    '0017-ratings': ratings(dialect),
    '0018-runner-trust': runnerTrust(dialect),
    '0019-search-key': searchKey(dialect),
    '0020-rating-moderation': ratingModeration(dialect),
    '0021-places': places(dialect),
    '0022-receiver-match-keys': receiverMatchKeys,
    '0023-timetables': timetables(dialect),
    '0024-delivery-attempts': deliveryAttempts(dialect, editSqliteSchema),
    '0025-mail': mail(dialect),
    '0026-parcel-mail': parcelMail,
    '0027-account-changes': accountChanges(dialect),
    '0028-write-path': writePath(dialect),
    '0029-mail-parcel': mailParcel,
    '0030-account-language': accountLanguage,
  };
}
