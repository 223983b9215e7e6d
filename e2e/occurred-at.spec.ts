import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { expect, parcelFromNewSender, runnerContext, test } from './fixtures.ts';

test.describe('a pickup sent later (occurredAt)', () => {
  test('the tracking timeline shows when the runner picked it up, with when the server heard of it', async ({
    browser,
    page,
  }) => {
    const parcel = await parcelFromNewSender(browser);
    const runner = await runnerContext(browser);
    const occurredAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const pickup = await runner.context.request.post(`/api/parcels/${parcel.id}/pickup`, {
      data: { occurredAt },
      headers: { 'idempotency-key': `e2e-${parcel.id}` },
    });
    expect(pickup.status(), await pickup.text()).toBe(200);
    const events = (await (await page.request.get(`/api/tracking/${parcel.id}`)).json()).events as {
      at: string;
      kind: string;
      occurredAt?: string;
    }[];
    const pickedUp = events.find((event) => event.kind === 'picked_up');
    expect(pickedUp?.occurredAt).toBe(occurredAt);

    await page.goto(paths.tracking(parcel.id));
    const step = page.locator('.timeline li').nth(1);
    await expect(step.locator('time')).toHaveText(formatTimestamp(occurredAt));
    await expect(step.locator('time')).toHaveAttribute('datetime', occurredAt);
    await expect(step).toContainText(messages.eventReceivedAt(formatTimestamp(pickedUp?.at ?? '')));
    await runner.context.close();
  });
});
