import type { DropPoint } from '@csomag/domain/drop-points';
import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { FormField } from '../../components/form-field.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { useDropPointParcels, useMyDropPoints, useRelease } from './api.ts';

/** 'Kiadás': the code the receiver (or, on its way back, the sender) shows; refusals in the server's words. */
function ReleaseForm({ dropPointId, parcelId }: { dropPointId: number; parcelId: string }) {
  const release = useRelease(dropPointId);
  const [pin, setPin] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    release.mutate({ parcelId, pin });
  };
  return (
    <form className="form inline" onSubmit={submit} noValidate aria-label={messages.releaseSubmit}>
      <FormField
        label={messages.releaseLabel}
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        value={pin}
        onChange={(event) => setPin(event.target.value)}
        error={release.error ? errorMessage(release.error) : undefined}
      />
      <button type="submit" className="button primary" disabled={release.isPending || pin.trim().length === 0}>
        {messages.releaseSubmit}
      </button>
    </form>
  );
}

/** One drop point's work: what comes (with the code for its runner) and what waits (to hand out). */
function DropPointWork({ point }: { point: DropPoint }) {
  const parcels = useDropPointParcels(point.id);
  return (
    <section className="card" aria-label={point.name}>
      <header>
        <h2>{point.name}</h2>
        <p className="muted">
          {point.address} · {point.openingHours} ·{' '}
          {point.openNow ? messages.dropPointOpenNow : messages.dropPointClosedNow}
        </p>
      </header>
      <QueryState query={parcels}>
        {({ items }) => {
          const coming = items.filter((item) => item.status === 'in_transit');
          const waiting = items.filter((item) => item.status === 'at_drop_point');
          return (
            <>
              <h3>{messages.dropPointComing}</h3>
              {coming.length === 0 && <p className="muted">{messages.dropPointEmpty}</p>}
              <ul className="plain">
                {coming.map((item) => (
                  <li key={item.id} aria-label={item.id}>
                    <span className="mono">{item.id}</span> · {item.category}
                    {item.dropOffPin && <p>{messages.dropOffPinText(item.dropOffPin)}</p>}
                  </li>
                ))}
              </ul>
              <h3>{messages.dropPointWaiting}</h3>
              {waiting.length === 0 && <p className="muted">{messages.dropPointEmpty}</p>}
              <ul className="plain">
                {waiting.map((item) => (
                  <li key={item.id} aria-label={item.id}>
                    <span className="mono">{item.id}</span> · {item.category}
                    {item.since && <p className="muted">{messages.dropPointSince(formatTimestamp(item.since))}</p>}
                    {item.returning && <p>{messages.dropPointForSender}</p>}
                    <ReleaseForm dropPointId={point.id} parcelId={item.id} />
                  </li>
                ))}
              </ul>
            </>
          );
        }}
      </QueryState>
    </section>
  );
}

/** 'Átvételi pont': the staff's page for the drop points they work at (issue 28). */
export function DropPointStaffPage() {
  const points = useMyDropPoints();
  return (
    <section className="page">
      <h1>{messages.dropPointPageTitle}</h1>
      <QueryState query={points}>
        {({ items }) =>
          items.length === 0 ? (
            <p>{messages.dropPointNoneStaffed}</p>
          ) : (
            items.map((point) => <DropPointWork key={point.id} point={point} />)
          )
        }
      </QueryState>
    </section>
  );
}
