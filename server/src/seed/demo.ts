import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messages } from '@csomag/domain/messages';
import { OPERATOR_PAGES, type OperatorPage, operatorPageFiles } from '@csomag/domain/operator-pages';
import { paths } from '@csomag/domain/paths';
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../db/schema.ts';
import { createAccount } from '../modules/auth/accounts.ts';
import { createParcel, type ParcelsContext } from '../modules/parcels/service.ts';
import { PlacesGeocoder } from '../modules/places/geocoder.ts';
import { PlaceStore } from '../modules/places/store.ts';
import demoData from './demo-data.json' with { type: 'json' };

const demoPassword = () => randomBytes(6).toString('base64url');

/** The demo accounts, in the order they are created (the superadmin gets the first id). */
const DEMO_ROLES = ['superadmin', 'user', 'runner'] as const;

/**
 * Seeds an empty database with a superadmin, a user, a runner and a few waiting parcels around
 * Budapest (who and what: demo-data.json). Passwords are random per installation, written to
 * DATA_DIR and printed. Returns the text to print, or null when the database already had accounts.
 */
export async function seedDemoData(db: Kysely<Database>, dataDir: string): Promise<string | null> {
  const any = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const lines: string[] = [];
  let sender: AccountRow | undefined;
  for (const role of DEMO_ROLES) {
    const person = demoData.accounts[role];
    const password = demoPassword();
    // Demo accounts' addresses count as verified: nobody reads their mail (issue 29).
    const account = await createAccount(
      db,
      { ...person, password, phoneNumber: demoData.phoneNumber },
      role,
      'auto',
      undefined,
      { verified: true },
    );
    if (role === 'user') sender = account;
    lines.push(`  ${role.padEnd(10)} ${person.email}  ${password}`);
  }
  // Through the same command the API uses; nobody listens for changes before the server starts.
  const context: ParcelsContext = {
    db,
    changes: { transaction: (work) => db.transaction().execute((trx) => work(trx, async () => {})) },
    geocoder: new PlacesGeocoder(new PlaceStore(db)),
  };
  for (const { category, weightGrams, from, to } of demoData.parcels) {
    if (!sender) break;
    await createParcel(context, sender, {
      category,
      weightGrams,
      senderAddress: from.address,
      senderCoordinates: { lat: from.lat, lng: from.lng },
      receiverAddress: to.address,
      receiverCoordinates: { lat: to.lat, lng: to.lng },
    });
  }
  const text = [
    `Demo data created. Sign in at ${paths.login} with:`,
    ...lines,
    `(also saved in ${join(dataDir, 'demo-credentials.txt')}; set DEMO_DATA=0 to start empty)`,
  ].join('\n');
  writeFileSync(join(dataDir, 'demo-credentials.txt'), `${text}\n`, { mode: 0o600 });
  writeExamplePages(dataDir);
  return text;
}

/** The operator's pages as examples (issue 29), where no page is yet: the operator replaces them. */
function writeExamplePages(dataDir: string) {
  const examples: Record<OperatorPage, string> = {
    privacy: messages.demoPrivacyPage,
    contact: messages.demoContactPage,
    imprint: messages.demoImprintPage,
  };
  mkdirSync(join(dataDir, 'pages'), { recursive: true });
  for (const page of OPERATOR_PAGES) {
    const path = join(dataDir, 'pages', operatorPageFiles[page].file);
    if (!existsSync(path)) writeFileSync(path, examples[page]);
  }
}
