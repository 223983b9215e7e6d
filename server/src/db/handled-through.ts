/**
 * How far a change-feed listener has got, for whoever waits on it: "follow the change feed until
 * change N is handled" (the push notifier, the trip offers; tests wait on them, never on a clock).
 */
export class HandledThrough {
  /** The newest change id heard. */
  private newest = 0;
  private waiters: { id: number; wake: () => void }[] = [];

  /** The listener heard change `id` (after queueing whatever it does with it). */
  heard(id: number) {
    this.newest = Math.max(this.newest, id);
    const ready = this.waiters.filter((waiter) => waiter.id <= this.newest);
    this.waiters = this.waiters.filter((waiter) => waiter.id > this.newest);
    for (const waiter of ready) waiter.wake();
  }

  /** Resolves once change `id` (or a later one) was heard and then `idle` — the listener's queue — resolved. */
  async settled(id: number, idle: () => Promise<void>): Promise<void> {
    if (this.newest < id) await new Promise<void>((wake) => this.waiters.push({ id, wake }));
    await idle();
  }
}
