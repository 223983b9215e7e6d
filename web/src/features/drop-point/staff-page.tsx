import type { DropPoint } from '@csomag/domain/drop-points';
import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { CodeForm } from '../../components/code-form.tsx';
import { CodeQr } from '../../components/code-qr.tsx';
import { FormError } from '../../components/form-field.tsx';
import { IncidentForm } from '../../components/incident-form.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { useCodeFromLink } from '../../lib/code-link.ts';
import { useDropPointParcels, useMyDropPoints, useRefuseAtDropPoint, useRelease } from './api.ts';

/** 'Kiadás': the code the receiver (or, on its way back, the sender) shows; refusals in the server's words. */
function ReleaseForm({ dropPointId, parcelId }: { dropPointId: number; parcelId: string }) {
  const release = useRelease(dropPointId);
  return (
    <CodeForm
      initialPin={useCodeFromLink(parcelId)}
      label={messages.releaseLabel}
      submitLabel={messages.releaseSubmit}
      onSubmit={(pin) => release.mutate({ parcelId, pin })}
      pending={release.isPending}
      error={release.error}
      inline
      primary
    />
  );
}

/** 'A címzett nem veszi át': asked once more, then the parcel goes back to its sender. */
function RefusedByReceiver({ dropPointId, parcelId }: { dropPointId: number; parcelId: string }) {
  const refuse = useRefuseAtDropPoint(dropPointId);
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button" onClick={() => setAsking(true)}>
        {messages.refusedAtDropPointButton}
      </button>
    );
  }
  return (
    <fieldset className="notice">
      <legend>{messages.refusedAtDropPointButton}</legend>
      <p>{messages.refusedAtDropPointConfirm}</p>
      <FormError message={refuse.error ? errorMessage(refuse.error) : null} />
      <div className="card-actions">
        <button
          type="button"
          className="button danger"
          disabled={refuse.isPending}
          onClick={() => refuse.mutate(parcelId)}
        >
          {messages.refusedAtDropPointYes}
        </button>
        <button type="button" className="button" onClick={() => setAsking(false)}>
          {messages.cancelButton}
        </button>
      </div>
    </fieldset>
  );
}

/** 'Probléma bejelentése': the parcel waiting here is damaged or missing; the back office decides. */
function ReportProblem({ parcelId }: { parcelId: string }) {
  const [open, setOpen] = useState(false);
  return open ? (
    <IncidentForm parcelId={parcelId} onDone={() => setOpen(false)} />
  ) : (
    <button type="button" className="button" onClick={() => setOpen(true)}>
      {messages.incidentReportButton}
    </button>
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
                    {item.dropOffPin && (
                      <>
                        <p>{messages.dropOffPinText(item.dropOffPin)}</p>
                        <CodeQr
                          path={paths.inProgressParcels}
                          parcelId={item.id}
                          pin={item.dropOffPin}
                          label={messages.codeQrForRunner}
                        />
                      </>
                    )}
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
                    {item.returnPin && (
                      <>
                        <p>{messages.dropPointReturnPinText(item.returnPin)}</p>
                        <CodeQr
                          path={paths.waitingParcels}
                          parcelId={item.id}
                          pin={item.returnPin}
                          label={messages.codeQrForRunner}
                        />
                      </>
                    )}
                    <ReleaseForm dropPointId={point.id} parcelId={item.id} />
                    {!item.returning && <RefusedByReceiver dropPointId={point.id} parcelId={item.id} />}
                    <ReportProblem parcelId={item.id} />
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
