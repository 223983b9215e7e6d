import { z } from 'zod';
import { addressField } from './account.ts';
import { TIME_ZONE } from './constants.ts';
import { messages } from './messages.ts';
import { coordinatesSchema } from './parcel.ts';
import { isInHungary } from './places.ts';

/**
 * Drop points ('Átvételi pont', issue 28, docs/decisions/0030): partner places — a shop, a locker
 * bank, an office — where a runner leaves a parcel and its receiver collects it with their code
 * while the place is open. Staffed by accounts the back office names.
 */

export const DROP_POINT_KINDS = ['shop', 'locker', 'office'] as const;
export type DropPointKind = (typeof DROP_POINT_KINDS)[number];
export const dropPointKindLabels: Record<DropPointKind, string> = {
  shop: messages.dropPointKindShop,
  locker: messages.dropPointKindLocker,
  office: messages.dropPointKindOffice,
};

/** Hungarian day abbreviations, Monday first: H K Sze Cs P Szo V. */
export const OPENING_DAYS = ['H', 'K', 'Sze', 'Cs', 'P', 'Szo', 'V'] as const;

/** Each weekday's open intervals in minutes from midnight (Budapest time), Monday first. */
export type OpeningWeek = [number, number][][];

const dayIndex = (text: string) => OPENING_DAYS.findIndex((day) => day.toLowerCase() === text.toLowerCase());
const TIME = /^([01]?\d|2[0-4]):([0-5]\d)$/;
const minutesOf = (text: string) => {
  const match = TIME.exec(text.trim());
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : null;
};

/**
 * Opening hours as people write them: rules separated by ';', each days then times —
 * `H-P 8:00-18:00; Szo 9:00-12:00`, `H,Sze,P 10:00-12:00,14:00-18:00`, `H-V 0:00-24:00`. Days not
 * named are closed. Answers the week, or null when the text does not parse (nothing is guessed).
 */
export function parseOpeningHours(text: string): OpeningWeek | null {
  const week: OpeningWeek = OPENING_DAYS.map(() => []);
  const rules = text
    .split(';')
    .map((rule) => rule.trim())
    .filter(Boolean);
  if (rules.length === 0) return null;
  for (const rule of rules) {
    const space = rule.indexOf(' ');
    if (space < 0) return null;
    const days = new Set<number>();
    for (const part of rule.slice(0, space).split(',')) {
      const [from, to, extra] = part.split('-');
      if (extra !== undefined || from === undefined) return null;
      const start = dayIndex(from);
      const end = to === undefined ? start : dayIndex(to);
      if (start < 0 || end < 0 || end < start) return null;
      for (let day = start; day <= end; day++) days.add(day);
    }
    for (const part of rule.slice(space + 1).split(',')) {
      const [from, to, extra] = part.split('-');
      if (extra !== undefined || from === undefined || to === undefined) return null;
      const open = minutesOf(from);
      const close = minutesOf(to);
      if (open === null || close === null || close <= open) return null;
      for (const day of days) week[day]?.push([open, close]);
    }
  }
  return week;
}

/** Budapest's weekday (0 = Monday) and minutes since midnight at `at`. */
function budapestClock(at: Date): { day: number; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(part('weekday'));
  return { day, minutes: Number(part('hour')) * 60 + Number(part('minute')) };
}

/** Whether a place with these hours is open at `at` (Budapest time). */
export function isOpenAt(week: OpeningWeek, at: Date): boolean {
  const { day, minutes } = budapestClock(at);
  return (week[day] ?? []).some(([open, close]) => minutes >= open && minutes < close);
}

/** The back office's drop point form: POST /api/drop-points, PUT /api/drop-points/:id. */
export const dropPointBodySchema = z.object({
  name: z
    .string({ error: messages.dropPointNameInvalid })
    .trim()
    .min(2, { error: messages.dropPointNameInvalid })
    .max(100, { error: messages.dropPointNameInvalid }),
  kind: z.enum(DROP_POINT_KINDS, { error: messages.dropPointKindInvalid }),
  address: addressField,
  location: coordinatesSchema.refine(isInHungary, { error: messages.dropPointOutsideHungary }),
  openingHours: z
    .string({ error: messages.openingHoursInvalid })
    .trim()
    .max(300, { error: messages.openingHoursInvalid })
    .refine((text) => parseOpeningHours(text) !== null, { error: messages.openingHoursInvalid }),
  /** The accounts (user names) that staff it: they receive and release its parcels. */
  staff: z.array(z.string().trim().min(1).max(32)).max(20).default([]),
  active: z.boolean().default(true),
});
export type DropPointBody = z.infer<typeof dropPointBodySchema>;

export const dropPointSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(DROP_POINT_KINDS),
  address: z.string(),
  location: coordinatesSchema,
  openingHours: z.string(),
  /** Open now (Budapest time), as its hours say. */
  openNow: z.boolean(),
  active: z.boolean(),
});
export type DropPoint = z.infer<typeof dropPointSchema>;
export const dropPointListSchema = z.object({ items: z.array(dropPointSchema) });
export type DropPointList = z.infer<typeof dropPointListSchema>;
/** The back office's view: with its staff. */
export const adminDropPointSchema = dropPointSchema.extend({ staff: z.array(z.string()) });
export const adminDropPointListSchema = z.object({ items: z.array(adminDropPointSchema) });

export const dropPointParamsSchema = z.object({
  id: z.coerce
    .number({ error: messages.dropPointNotFound })
    .int({ error: messages.dropPointNotFound })
    .positive({ error: messages.dropPointNotFound }),
});

/** POST /api/parcels/:id/drop-point: the parcel goes to this drop point instead of the door. */
export const chooseDropPointBodySchema = z.object({
  dropPointId: z.number({ error: messages.dropPointNotFound }).int({ error: messages.dropPointNotFound }).positive(),
});

/** A parcel for its drop point's staff: what is on its way there (with the code the runner types) and what waits there. */
export const dropPointParcelSchema = z.object({
  id: z.string(),
  category: z.string(),
  weightGrams: z.number().int(),
  status: z.enum(['in_transit', 'at_drop_point']),
  /** Since when it waits there (at_drop_point). */
  since: z.string().nullable(),
  /** The code the staff reads out to the runner who brings it (in_transit only). */
  dropOffPin: z.string().nullable(),
  /** On its way back: its sender collects it, or a runner takes it to their door. */
  returning: z.boolean(),
  /** Waiting on its way back: the code the staff reads out to the runner who takes it to its sender. */
  returnPin: z.string().nullable(),
});
export const dropPointParcelsSchema = z.object({ dropPoint: dropPointSchema, items: z.array(dropPointParcelSchema) });
export type DropPointParcels = z.infer<typeof dropPointParcelsSchema>;

/**
 * A parcel waiting at a drop point on its way back to its sender (issue 28), for runners: a pickup
 * at the drop point, delivered at the sender's door. GET /api/drop-point-returns.
 */
export const dropPointReturnSchema = z.object({
  id: z.string(),
  category: z.string(),
  weightGrams: z.number().int(),
  since: z.string().nullable(),
  dropPoint: dropPointSchema,
  /** Where it goes: its sender's address and point. */
  senderAddress: z.string(),
  senderLocation: coordinatesSchema,
});
export type DropPointReturn = z.infer<typeof dropPointReturnSchema>;
export const dropPointReturnListSchema = z.object({ items: z.array(dropPointReturnSchema) });
export type DropPointReturnList = z.infer<typeof dropPointReturnListSchema>;
