/**
 * Sign-in abuse limits (DESIGN §4): 5 failures per email + IP and 100 attempts per IP
 * in 15 minutes. Kept in process memory — enough for the embedded single instance;
 * several PostgreSQL instances each keep their own window (see docs/decisions).
 */
const WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES_PER_EMAIL_IP = 5;
const MAX_ATTEMPTS_PER_IP = 100;

interface Window {
  count: number;
  resetAt: number;
}

export class LoginLimiter {
  private readonly failures = new Map<string, Window>();
  private readonly attempts = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts an attempt; false when this email + IP or this IP must wait. */
  tryAttempt(email: string, ip: string): boolean {
    this.sweep();
    const attempts = this.bump(this.attempts, ip);
    if (attempts > MAX_ATTEMPTS_PER_IP) return false;
    return (this.failures.get(`${ip}\u0000${email}`)?.count ?? 0) < MAX_FAILURES_PER_EMAIL_IP;
  }

  recordFailure(email: string, ip: string) {
    this.bump(this.failures, `${ip}\u0000${email}`);
  }

  recordSuccess(email: string, ip: string) {
    this.failures.delete(`${ip}\u0000${email}`);
  }

  private bump(map: Map<string, Window>, key: string): number {
    const now = this.now();
    const window = map.get(key);
    if (!window || window.resetAt <= now) {
      map.set(key, { count: 1, resetAt: now + WINDOW_MS });
      return 1;
    }
    window.count += 1;
    return window.count;
  }

  private sweep() {
    if (this.failures.size + this.attempts.size < 10_000) return;
    const now = this.now();
    for (const map of [this.failures, this.attempts]) {
      for (const [key, window] of map) if (window.resetAt <= now) map.delete(key);
    }
  }
}
