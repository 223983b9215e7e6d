import type { WindowCounter } from '../../db/rate-limits.ts';

/**
 * Sign-in abuse limits (DESIGN §4): 5 failures per email + IP and 100 attempts per IP in
 * 15 minutes. Counted in a WindowCounter: process memory on SQLite, the shared `rate_limits`
 * table on PostgreSQL, so every instance sees the same counts (docs/decisions/0003).
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL_IP = 5;
export const MAX_ATTEMPTS_PER_IP = 100;

const attemptsKey = (ip: string) => `sign-in:ip:${ip}`;
// An address never holds a space, so the first one ends it.
const failuresKey = (email: string, ip: string) => `sign-in:failures:${ip} ${email.trim().toLowerCase()}`;

export class LoginLimiter {
  constructor(private readonly counter: WindowCounter) {}

  /**
   * Counts an attempt; false when this IP or this email + IP must wait. The attempt counts as a
   * failure of its email + IP until recordSuccess clears them, so parallel guesses (on one
   * instance or several) cannot all pass the check before the first of them has failed.
   */
  async tryAttempt(email: string, ip: string): Promise<boolean> {
    const attempts = await this.counter.hit(attemptsKey(ip), SIGN_IN_WINDOW_MS);
    if (attempts.count > MAX_ATTEMPTS_PER_IP) return false;
    const failures = await this.counter.hit(failuresKey(email, ip), SIGN_IN_WINDOW_MS);
    return failures.count <= MAX_FAILURES_PER_EMAIL_IP;
  }

  /** The password was right: this email + IP starts again with no failures. */
  async recordSuccess(email: string, ip: string): Promise<void> {
    await this.counter.reset(failuresKey(email, ip));
  }
}
