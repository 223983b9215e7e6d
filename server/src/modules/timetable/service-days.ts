/**
 * GTFS's service days (issue 26): a day's times count from "noon minus 12 hours" in the feed's
 * zone, so on the day clocks change a trip keeps its wall-clock times. One definition for the
 * compiler (gtfs/compile.ts) and the router.
 */

const SECOND = 1_000;
const HOUR = 3_600_000;

const formats = new Map<string, Intl.DateTimeFormat>();

/** How far (ms) `timeZone`'s wall clock is ahead of UTC at `instant`. */
function zoneOffset(instant: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value);
  const wall = Date.UTC(
    part.year ?? 0,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour ?? 0,
    part.minute ?? 0,
    part.second ?? 0,
  );
  return wall - Math.floor(instant / SECOND) * SECOND;
}

/** 'YYYY-MM-DD' `days` after `day`. */
export function addDays(day: string, days: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/**
 * GTFS's service day base: the instant (ms) of noon minus 12 hours on `day` in `timeZone` — on the
 * day clocks change, not local midnight, so a trip keeps its wall-clock times.
 */
export function serviceDayBase(day: string, timeZone: string): number {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  const noonAsUtc = Date.UTC(year, month - 1, date, 12);
  // Twice: the offset read at the first guess may belong to the other side of a change far from noon.
  let noon = noonAsUtc - zoneOffset(noonAsUtc, timeZone);
  noon = noonAsUtc - zoneOffset(noon, timeZone);
  return noon - 12 * HOUR;
}
