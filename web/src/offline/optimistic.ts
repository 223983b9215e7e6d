import type { CarriedParcel, Parcel } from '@csomag/domain/parcel';
import type { QueryClient } from '@tanstack/react-query';

/*
 * What a kept action changes on the runner's screens until the server has it: a parcel picked up
 * offline leaves the waiting lists and shows among the carried ones (so it can be delivered offline
 * too); one delivered offline leaves the carried list. The outbox refreshes every list with the
 * server's truth once the action is sent (src/offline/outbox.ts).
 */

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
interface Pages<T> {
  pages: Page<T>[];
  pageParams: unknown[];
}
type ListData<T> = Page<T> | Pages<T>;

const WAITING = ['parcels', 'waiting'] as const;
const ASSIGNED = ['parcels', 'assigned'] as const;

const isPages = <T>(data: ListData<T>): data is Pages<T> => 'pages' in data;
const itemsOf = <T>(data: ListData<T>): T[] => (isPages(data) ? data.pages.flatMap((page) => page.items) : data.items);

function withoutItem<T extends { id: string }>(data: ListData<T> | undefined, id: string): ListData<T> | undefined {
  if (!data) return data;
  if (isPages(data)) {
    return {
      ...data,
      pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })),
    };
  }
  return { ...data, items: data.items.filter((item) => item.id !== id) };
}

function withFirst<T extends { id: string }>(data: ListData<T> | undefined, item: T): ListData<T> | undefined {
  if (!data) return data;
  const rest = withoutItem(data, item.id) ?? data;
  if (isPages(rest)) {
    const [first, ...others] = rest.pages;
    return {
      ...rest,
      pages: [{ items: [item, ...(first?.items ?? [])], nextCursor: first?.nextCursor ?? null }, ...others],
    };
  }
  return { ...rest, items: [item, ...rest.items] };
}

function findParcel(queryClient: QueryClient, parcelId: string): Parcel | undefined {
  for (const [, data] of queryClient.getQueriesData<ListData<Parcel>>({ queryKey: WAITING })) {
    const found = data && itemsOf(data).find((item) => item.id === parcelId);
    if (found) return found;
  }
  return undefined;
}

/** `assignedKey`: the carried list's own key, filled in when no carried list was read yet. */
export function moveParcel(
  queryClient: QueryClient,
  parcelId: string,
  change: 'pickedUp' | 'delivered',
  assignedKey: readonly unknown[],
) {
  if (change === 'pickedUp') {
    const parcel = findParcel(queryClient, parcelId);
    if (parcel) {
      const runner = queryClient.getQueryData<{ userName: string } | null>(['session'])?.userName ?? null;
      const carried: CarriedParcel = {
        ...parcel,
        status: 'in_transit',
        state: 'in_transit',
        runner,
        // The contacts come with the server's answer; until then, the sender by name only.
        contacts: { recipientName: null, recipientPhone: null, senderName: parcel.senderUser, senderPhone: '' },
      };
      if (queryClient.getQueriesData({ queryKey: ASSIGNED }).every(([, data]) => data === undefined)) {
        const list: Pages<CarriedParcel> = { pages: [{ items: [carried], nextCursor: null }], pageParams: [undefined] };
        queryClient.setQueryData(assignedKey, list);
      } else {
        queryClient.setQueriesData<ListData<CarriedParcel>>({ queryKey: ASSIGNED }, (data) => withFirst(data, carried));
      }
    }
    queryClient.setQueriesData<ListData<Parcel>>({ queryKey: WAITING }, (data) => withoutItem(data, parcelId));
  } else {
    queryClient.setQueriesData<ListData<CarriedParcel>>({ queryKey: ASSIGNED }, (data) => withoutItem(data, parcelId));
  }
}
