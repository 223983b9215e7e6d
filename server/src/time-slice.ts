/**
 * Long CPU work that lets other requests in: it runs for a slice of `ms`, then waits one turn of the
 * event loop (`setImmediate`: after the I/O already waiting) and starts the next slice. The caller
 * asks `due` between steps and awaits `pause()` when it is.
 */
export class TimeSlice {
  private endsAt: number;

  constructor(private readonly ms: number) {
    this.endsAt = performance.now() + ms;
  }

  /** Whether this slice is used up. */
  get due(): boolean {
    return performance.now() > this.endsAt;
  }

  /** Waits a turn, then starts the next slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.endsAt = performance.now() + this.ms;
  }
}
