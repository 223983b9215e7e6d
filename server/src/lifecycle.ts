/**
 * Whether this instance is on its way out (SIGTERM): readiness turns 503 and event streams are
 * sent elsewhere. Modules register what they do when draining starts.
 */
export class Lifecycle {
  draining = false;
  private readonly handlers: (() => void)[] = [];

  onDrain(handler: () => void) {
    this.handlers.push(handler);
  }

  drain() {
    if (this.draining) return;
    this.draining = true;
    for (const handler of this.handlers) handler();
  }
}
