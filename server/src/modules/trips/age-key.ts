/**
 * An instant written as toISOString writes it ('2026-11-28T08:19:00.000Z') as a number in the order
 * of its text — its fields in mixed radix, each below its radix, so exact and strictly increasing —
 * or NaN for any other text.
 */
export function ageKey(text: string): number {
  if (text.length !== 24) return Number.NaN;
  // The date's digits and the time's, each as one decimal number (below 10^9: exact).
  let date = 0;
  let time = 0;
  for (let i = 0; i < 24; i++) {
    const code = text.charCodeAt(i);
    const kind = ISO_LAYOUT[i] as number;
    if (kind > 1) {
      if (code !== kind) return Number.NaN;
      continue;
    }
    const digit = code - 48;
    if (!(digit >= 0 && digit <= 9)) return Number.NaN;
    if (kind === 0) date = date * 10 + digit;
    else time = time * 10 + digit;
  }
  const month = Math.floor(date / 100) % 100;
  const day = date % 100;
  const hour = Math.floor(time / 10_000_000);
  const minute = Math.floor(time / 100_000) % 100;
  const second = Math.floor(time / 1000) % 100;
  // Each field below its radix, so the mixed radix below orders as the text does (at most ~3.6e14: exact).
  if (month > 12 || day > 31 || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  const days = (Math.floor(date / 10_000) * 13 + month) * 32 + day;
  return (days * 86_400 + (hour * 60 + minute) * 60 + second) * 1000 + (time % 1000);
}

/** 'YYYY-MM-DDThh:mm:ss.sssZ': 0 a digit of the date, 1 of the time, else the character itself. */
const ISO_LAYOUT = Array.from('0000-00-00T11:11:11.111Z', (char) =>
  char === '0' ? 0 : char === '1' ? 1 : char.charCodeAt(0),
);
