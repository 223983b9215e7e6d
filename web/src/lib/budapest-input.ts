import { budapestInstant } from '@csomag/domain/format';

/**
 * A datetime-local value read as Budapest time, as an ISO instant: the input holds a wall-clock
 * time, always Budapest's here, whatever the phone's own time zone is. Anything else goes as typed,
 * and the schema says what is wrong with it.
 */
export function fromBudapestInput(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return value;
  const [, year, month, day, hour, minute] = match;
  const at = budapestInstant(Number(year), Number(month), Number(day), Number(hour), Number(minute));
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}
