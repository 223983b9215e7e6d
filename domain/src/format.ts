import { TIME_ZONE } from './constants.ts';

const timestampFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DD HH:mm:ss` in Budapest time with the real month (the original's was zero-based). */
export function formatTimestamp(value: string | Date): string {
  const parts = Object.fromEntries(timestampFormat.formatToParts(new Date(value)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

export function formatWeight(grams: number): string {
  return `${grams} g`;
}

/** How long ago, in Hungarian ("most", "5 perce", "2 órája", "3 napja"). */
export function formatAge(value: string | Date, now: Date = new Date()): string {
  const minutes = Math.floor((now.getTime() - new Date(value).getTime()) / 60_000);
  if (minutes < 1) return 'most';
  if (minutes < 60) return `${minutes} perce`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} órája`;
  return `${Math.floor(hours / 24)} napja`;
}

/** A distance as a runner reads it: '350 m' under a kilometre, '1,2 km' (Hungarian decimal comma) above. */
export function formatDistance(metres: number): string {
  const rounded = Math.round(metres);
  if (rounded < 1000) return `${rounded} m`;
  const km = metres / 1000;
  return `${(km < 10 ? km.toFixed(1) : Math.round(km).toString()).replace('.', ',')} km`;
}
