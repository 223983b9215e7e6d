import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../db/schema.ts';
import { createAccount } from '../modules/auth/accounts.ts';
import { OfflineGeocoder } from '../modules/geo/offline.ts';
import { createParcel, type ParcelsContext } from '../modules/parcels/service.ts';

const demoPassword = () => randomBytes(6).toString('base64url');

const demoParcels = [
  {
    category: 'Könyv',
    weightGrams: 850,
    from: ['1052 Budapest, Váci utca 12', 47.4935, 19.0531],
    to: ['1117 Budapest, Október huszonharmadika utca 8', 47.4734, 19.0487],
  },
  {
    category: 'Ruha',
    weightGrams: 1200,
    from: ['1052 Budapest, Váci utca 12', 47.4935, 19.0531],
    to: ['1137 Budapest, Szent István park 3', 47.5197, 19.0555],
  },
  {
    category: 'Irat',
    weightGrams: 150,
    from: ['1061 Budapest, Andrássy út 20', 47.5036, 19.0598],
    to: ['1111 Budapest, Bartók Béla út 5', 47.4817, 19.0536],
  },
  {
    category: 'Élelmiszer',
    weightGrams: 2500,
    from: ['1085 Budapest, Üllői út 26', 47.4885, 19.0673],
    to: ['2000 Szentendre, Fő tér 1', 47.6694, 19.0756],
  },
] as const;

/**
 * Seeds an empty database with a superadmin, a user, a runner and a few waiting parcels
 * around Budapest. Passwords are random per installation, written to DATA_DIR and printed.
 * Returns the text to print, or null when the database already had accounts.
 */
export async function seedDemoData(db: Kysely<Database>, dataDir: string): Promise<string | null> {
  const any = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const people = [
    {
      role: 'superadmin',
      name: 'Demó Admin',
      userName: 'admin',
      email: 'admin@demo.csomagkuldo.hu',
      address: '1051 Budapest, Nádor utca 1',
    },
    {
      role: 'user',
      name: 'Demó Felhasználó',
      userName: 'felhasznalo',
      email: 'felhasznalo@demo.csomagkuldo.hu',
      address: '1117 Budapest, Október huszonharmadika utca 8',
    },
    {
      role: 'runner',
      name: 'Demó Futár',
      userName: 'futar',
      email: 'futar@demo.csomagkuldo.hu',
      address: '1082 Budapest, Corvin sétány 1',
    },
  ] as const;
  const lines: string[] = [];
  let sender: AccountRow | undefined;
  for (const person of people) {
    const password = demoPassword();
    const account = await createAccount(db, { ...person, password, phoneNumber: '+36 30 123 4567' }, person.role);
    if (person.role === 'user') sender = account;
    lines.push(`  ${person.role.padEnd(10)} ${person.email}  ${password}`);
  }
  // Through the same command the API uses; nobody listens for changes before the server starts.
  const context: ParcelsContext = {
    db,
    changes: { transaction: (work) => db.transaction().execute((trx) => work(trx, async () => {})) },
    geocoder: new OfflineGeocoder(),
  };
  for (const parcel of demoParcels) {
    if (!sender) break;
    await createParcel(context, sender, {
      category: parcel.category,
      weightGrams: parcel.weightGrams,
      senderAddress: parcel.from[0],
      senderCoordinates: { lat: parcel.from[1], lng: parcel.from[2] },
      receiverAddress: parcel.to[0],
      receiverCoordinates: { lat: parcel.to[1], lng: parcel.to[2] },
    });
  }
  const text = [
    'Demo data created. Sign in at /Bejelentkezes with:',
    ...lines,
    `(also saved in ${join(dataDir, 'demo-credentials.txt')}; set DEMO_DATA=0 to start empty)`,
  ].join('\n');
  writeFileSync(join(dataDir, 'demo-credentials.txt'), `${text}\n`, { mode: 0o600 });
  return text;
}
