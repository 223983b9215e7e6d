import type { DropPointReturn } from '@csomag/domain/drop-points';
import { formatAge } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { CodeForm } from '../../components/code-form.tsx';
import { ParcelId } from '../../components/parcel-id.tsx';
import { useCodeFromLink } from '../../lib/code-link.ts';
import { useDropPointReturns, useTakeFromDropPoint } from './api.ts';

/**
 * Parcels not collected at a drop point in time (issue 28): a runner takes one there with the code
 * the staff read out and brings it to its sender's door. Shown above the waiting pool; nothing
 * while there are none.
 */
export function DropPointReturns() {
  const returns = useDropPointReturns();
  const items = returns.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="drop-point-returns" aria-label={messages.dropPointReturnsTitle}>
      <h2>{messages.dropPointReturnsTitle}</h2>
      <p className="muted">{messages.dropPointReturnsHint}</p>
      <ul className="plain">
        {items.map((item) => (
          <DropPointReturnCard key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}

function DropPointReturnCard({ item }: { item: DropPointReturn }) {
  const take = useTakeFromDropPoint();
  const { dropPoint } = item;
  return (
    <li className="card" aria-label={item.id}>
      <p>
        <ParcelId id={item.id} /> · {item.category}
      </p>
      <p>{messages.dropPointReturnFrom(dropPoint.name, dropPoint.address)}</p>
      <p className="muted">
        {dropPoint.openingHours} · {dropPoint.openNow ? messages.dropPointOpenNow : messages.dropPointClosedNow}
        {item.since && <> · {messages.waitingFor(formatAge(item.since))}</>}
      </p>
      <p>{messages.dropPointReturnTo(item.senderAddress)}</p>
      <CodeForm
        initialPin={useCodeFromLink(item.id)}
        label={messages.dropPointReturnPinLabel}
        submitLabel={messages.dropPointReturnSubmit}
        onSubmit={(pin) => take.mutate({ parcelId: item.id, pin })}
        pending={take.isPending}
        error={take.error}
        inline
      />
    </li>
  );
}
