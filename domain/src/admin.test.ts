import { describe, expect, it } from 'vitest';
import {
  accountListQuerySchema,
  adminParcelListQuerySchema,
  mapQuerySchema,
  parcelAdminUpdateSchema,
  parcelAssignBodySchema,
} from './admin.ts';
import { runnerListQuerySchema, runnerUpdateSchema } from './runner.ts';

/** The fields a schema refuses, each with its first Hungarian message. */
function refused(
  schema: { safeParse(value: unknown): { error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) {
  const fields: Record<string, string> = {};
  for (const issue of schema.safeParse(value).error?.issues ?? []) fields[issue.path.join('.')] ??= issue.message;
  return fields;
}

describe('admin map query', () => {
  const hungary = { south: '45.6', west: '16', north: '48.7', east: '23', zoom: '8' };

  it('reads the view from query text', () => {
    expect(mapQuerySchema.parse(hungary)).toEqual({ south: 45.6, west: 16, north: 48.7, east: 23, zoom: 8 });
  });

  it('refuses a box upside down or inside out, naming the far edge', () => {
    expect(refused(mapQuerySchema, { ...hungary, north: '45' })).toEqual({
      north: 'Érvénytelen térképkivágás: a déli határ az északi, a nyugati a keleti alatt legyen.',
    });
    expect(Object.keys(refused(mapQuerySchema, { ...hungary, east: '16' }))).toEqual(['east']);
  });

  it.each([
    ['south', '-90.5'],
    ['east', '180.1'],
    ['west', 'nyugat'],
  ])('refuses %s=%s as a coordinate', (field, value) => {
    expect(refused(mapQuerySchema, { ...hungary, [field]: value })).toEqual({ [field]: 'Érvénytelen koordináta.' });
  });

  it.each(['-1', '23', '7.5', ''])('refuses zoom %j', (zoom) => {
    expect(refused(mapQuerySchema, { ...hungary, zoom })).toEqual({
      zoom: 'A nagyítás 0 és 22 közötti egész szám legyen.',
    });
  });
});

describe('back-office parcel schemas', () => {
  it('takes a status only (no free text, DESIGN §9); which it may reach is the rule of backOfficeStatusChange', () => {
    expect(parcelAdminUpdateSchema.parse({ status: 'delivered' })).toEqual({ status: 'delivered' });
    for (const status of ['leadott', 'szállítás alatt', 'stolen']) {
      expect(Object.keys(refused(parcelAdminUpdateSchema, { status }))).toEqual(['status']);
    }
  });

  it('trims edited text and refuses empty text', () => {
    expect(parcelAdminUpdateSchema.parse({ category: ' Könyv ', receiverAddress: ' Szeged ' })).toEqual({
      category: 'Könyv',
      receiverAddress: 'Szeged',
    });
    expect(refused(parcelAdminUpdateSchema, { category: '   ' })).toEqual({ category: 'Kötelező mező.' });
  });

  it('filters the list by user names and status', () => {
    expect(adminParcelListQuerySchema.parse({ runner: 'futar_1', status: 'waiting' })).toEqual({
      runner: 'futar_1',
      status: 'waiting',
      limit: 50,
    });
    expect(Object.keys(refused(adminParcelListQuerySchema, { sender: 'ék' }))).toEqual(['sender']);
  });

  it('needs the runner to assign to', () => {
    expect(refused(parcelAssignBodySchema, {})).toEqual({ runner: 'Kötelező mező.' });
  });
});

describe('account search', () => {
  it('narrows to one of the three roles', () => {
    expect(accountListQuerySchema.parse({ role: 'user', q: ' Kiss ' })).toEqual({ role: 'user', q: 'Kiss', limit: 50 });
    expect(refused(accountListQuerySchema, { role: 'admin' })).toEqual({
      role: 'A szerepkör user, runner vagy superadmin lehet.',
    });
  });
});

describe('runner schemas', () => {
  it('reads a search and a parcel to measure from', () => {
    expect(runnerListQuerySchema.parse({ q: ' Nagy ', near: 'abcdefghjk' })).toEqual({
      q: 'Nagy',
      near: 'ABCDEFGHJK',
      limit: 50,
    });
  });

  it('never lets a role through a runner edit', () => {
    expect(runnerUpdateSchema.parse({ name: 'Új Név', role: 'superadmin' })).toEqual({ name: 'Új Név' });
  });
});
