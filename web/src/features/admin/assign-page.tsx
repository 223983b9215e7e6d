import { formatWeight } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading } from '../../components/loading.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { adminParcelsQuery, runnersQuery, useAdminLive, useAssign } from './api.ts';

const WAITING_CHOICES = 200;

const distanceLabel = (metres: number | null | undefined) =>
  metres === null || metres === undefined
    ? 'ismeretlen helyen'
    : metres < 1000
      ? `${metres} m`
      : `${(metres / 1000).toFixed(1)} km`;

/** SPEC §2.8 'Csomagok futárhoz rendelése': the nearest runners first; the same atomic change as a pickup. */
export function AssignPage() {
  const waiting = useInfiniteQuery(adminParcelsQuery({ status: 'waiting' }, WAITING_CHOICES));
  useAdminLive();
  const [parcelId, setParcelId] = useState('');
  const [runner, setRunner] = useState('');
  const runners = useInfiniteQuery({ ...runnersQuery('', parcelId || undefined), enabled: Boolean(parcelId) });
  const assign = useAssign();
  const parcels = waiting.data?.pages[0]?.items ?? [];
  const parcel = parcels.find((candidate) => candidate.id === parcelId);
  const candidates = runners.data?.pages.flatMap((page) => page.items) ?? [];

  if (waiting.isPending) return <Loading />;
  return (
    <section className="page narrow">
      <h1>Csomagok futárhoz rendelése</h1>
      <div className="form card">
        <div className="field">
          <label htmlFor="assign-parcel">Csomag</label>
          <select
            id="assign-parcel"
            value={parcelId}
            onChange={(event) => {
              setParcelId(event.target.value);
              setRunner('');
              assign.reset();
            }}
          >
            <option value="">Válassz csomagot…</option>
            {parcels.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.id}
              </option>
            ))}
          </select>
        </div>
        {parcel && (
          <dl className="details" aria-label="A kiválasztott csomag">
            <dt>Kategória</dt>
            <dd>{parcel.category}</dd>
            <dt>Súly</dt>
            <dd>{formatWeight(parcel.weightGrams)}</dd>
            <dt>Feladó</dt>
            <dd>{parcel.senderUser}</dd>
            <dt>Honnan</dt>
            <dd>{parcel.senderAddress}</dd>
            <dt>Hova</dt>
            <dd>{parcel.receiverAddress}</dd>
            <dt>Státusz</dt>
            <dd>
              <StatusBadge status={parcel.status} />
            </dd>
          </dl>
        )}
        <div className="field">
          <label htmlFor="assign-runner">Futár</label>
          <select
            id="assign-runner"
            value={runner}
            disabled={!parcelId}
            onChange={(event) => setRunner(event.target.value)}
          >
            <option value="">Válassz futárt…</option>
            {candidates.map((candidate) => (
              <option key={candidate.userName} value={candidate.userName}>
                {candidate.userName} – {candidate.name} ({distanceLabel(candidate.distanceMetres)})
              </option>
            ))}
          </select>
        </div>
        {parcelId && runner && <p>{messages.confirmAssign(parcelId, runner)}</p>}
        <button
          type="button"
          className="button primary"
          disabled={!parcelId || !runner || assign.isPending}
          onClick={() =>
            assign.mutate(
              { parcelId, runner },
              // The hook tells the result; this only clears the choice for the next parcel.
              {
                onSuccess: () => {
                  setParcelId('');
                  setRunner('');
                },
              },
            )
          }
        >
          Hozzárendelés
        </button>
      </div>
    </section>
  );
}
