import { TIME_ZONE } from './constants.ts';
import { messages } from './messages.ts';

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
});
const WEEKDAY_NUMBER: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const pad = (n: number) => String(n).padStart(2, '0');

/** The Budapest wall clock at an instant (epoch ms or a date): the one place its time zone is read. */
export function budapestParts(at: number | string | Date) {
  const parts = Object.fromEntries(partsFormat.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    /** ISO weekday: Monday 1 … Sunday 7. */
    weekday: WEEKDAY_NUMBER[parts.weekday ?? 'Mon'] ?? 1,
  };
}

/**
 * The instant of a Budapest wall-clock time: the earlier one in the autumn's repeated hour, and in
 * the spring's skipped hour the same wall-clock time an hour later.
 */
export function budapestInstant(year: number, month: number, day: number, hour: number, minute: number): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = budapestParts(guess);
    const seen = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess = wall - (seen - guess);
  }
  // In the repeated hour both readings match: the earlier one, an hour before, comes first.
  const earlier = budapestParts(guess - 3_600_000);
  const repeated = earlier.day === day && earlier.hour === hour && earlier.minute === minute;
  return repeated ? guess - 3_600_000 : guess;
}

/** `YYYY-MM-DDTHH:mm` in Budapest: the value of an `<input type="datetime-local">` showing that instant. */
export function budapestDateTimeInput(at: number): string {
  const p = budapestParts(at);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** The calendar day (YYYY-MM-DD) in Budapest at an instant. */
export const budapestDay = (at: number) => budapestDateTimeInput(at).slice(0, 10);

/** `HH:mm` in Budapest at an instant. */
export const budapestClock = (at: string | number) => budapestDateTimeInput(new Date(at).getTime()).slice(11);
/** 'H:MM' in Budapest, as a timetable prints a departure ('7:42', '23:05'). */
export const timetableClock = (at: string | number) => budapestClock(at).replace(/^0(?=\d:)/, '');

/**
 * A moment in Budapest time as the page's language writes it: `YYYY-MM-DD HH:mm:ss` in Hungarian
 * (SPEC; the real month, the original's was zero-based), `DD/MM/YYYY, HH:mm:ss` in English.
 */
export function formatTimestamp(value: string | Date): string {
  const p = budapestParts(value);
  return messages.timestamp(
    String(p.year),
    pad(p.month),
    pad(p.day),
    `${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`,
  );
}

export function formatWeight(grams: number): string {
  return `${grams} g`;
}

/** How long ago, in the page's language ("most", "5 perce", "2 órája", "3 napja" in Hungarian). */
export function formatAge(value: string | Date, now: Date = new Date()): string {
  const minutes = Math.floor((now.getTime() - new Date(value).getTime()) / 60_000);
  if (minutes < 1) return messages.ageNow;
  if (minutes < 60) return messages.ageMinutes(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return messages.ageHours(hours);
  return messages.ageDays(Math.floor(hours / 24));
}

/** A distance as a runner reads it: '350 m' under a kilometre, '1,2 km' above (the language's decimal mark). */
export function formatDistance(metres: number): string {
  const rounded = Math.round(metres);
  if (rounded < 1000) return `${rounded} m`;
  const km = metres / 1000;
  return `${(km < 10 ? km.toFixed(1) : Math.round(km).toString()).replace('.', messages.decimalMark)} km`;
}
