import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the package ships it as an ambient const enum, which isolated modules cannot read.
const ARGON2ID = 2;

// OWASP's argon2id minimum (19 MiB, 2 passes): ~30 ms here, so sign-in stays quick but guessing is costly.
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, options);

/** A hash of nothing, verified when an email is unknown so timing does not reveal which emails exist. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword('decoy-password');
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
