/**
 * Work done in the background, at most `concurrency` tasks at a time and at most `limit` waiting:
 * past that a task is refused (the caller counts it dropped) rather than memory growing without
 * end while a push service is down. A task's failure is its own business: it must not throw.
 */
export class BoundedQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly limit: number,
  ) {}

  /** false when the queue is full and the task was not taken. */
  push(task: () => Promise<void>): boolean {
    if (this.waiting.length >= this.limit) return false;
    this.waiting.push(task);
    this.next();
    return true;
  }

  get size() {
    return this.waiting.length + this.running;
  }

  /** Resolves once nothing is waiting or running. */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private next() {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift() as () => Promise<void>;
      this.running += 1;
      void task()
        .catch(() => {})
        .finally(() => {
          this.running -= 1;
          this.next();
          if (this.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
        });
    }
  }
}
