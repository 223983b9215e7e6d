import { formatTimestamp } from '@csomag/domain/format';
import { type Incident, incidentDecisionLabels, incidentKindLabels } from '@csomag/domain/incidents';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useIncidents } from '../../api/incidents.ts';
import { LoadMore } from '../../components/load-more.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { Link } from '../../lib/router.tsx';

/** An incident as listed; `linked`: with 'Részletek' to its own page (not on that page itself). */
export function IncidentCard({ incident, linked = true }: { incident: Incident; linked?: boolean }) {
  return (
    <article className="card parcel-card" aria-label={messages.incidentTitle(incident.id)}>
      <header>
        <strong>
          {messages.incidentTitle(incident.id)} · {incidentKindLabels[incident.kind]}
        </strong>
        <span className="mono">{incident.parcelId}</span>
      </header>
      <p>
        {messages.incidentReporter}: <strong>{incident.reporter ?? '—'}</strong> · {formatTimestamp(incident.createdAt)}
      </p>
      <p>{incident.description}</p>
      {incident.decision && incident.resolvedAt && (
        <p>
          {messages.incidentDecided(
            incidentDecisionLabels[incident.decision],
            incident.resolvedBy ?? '—',
            formatTimestamp(incident.resolvedAt),
          )}
          : {incident.note}
        </p>
      )}
      {linked && (
        <div className="card-actions">
          <Link className="button" to={paths.adminIncident(incident.id)}>
            {messages.reportOpenDetails}
          </Link>
        </div>
      )}
    </article>
  );
}

function IncidentList({ status }: { status: 'open' | 'resolved' }) {
  const query = useIncidents(status);
  return (
    <>
      <QueryState
        query={query}
        empty={messages.incidentsEmpty}
        isEmpty={(data) => data.pages.every((page) => page.items.length === 0)}
      >
        {(data) => (
          <ul className="parcel-list">
            {data.pages
              .flatMap((page) => page.items)
              .map((incident) => (
                <li key={incident.id}>
                  <IncidentCard incident={incident} />
                </li>
              ))}
          </ul>
        )}
      </QueryState>
      <LoadMore query={query} />
    </>
  );
}

/** 'Problémák' (issue 28): damaged or lost parcels the runners reported, open first. */
export function IncidentsPage() {
  return (
    <section className="page">
      <h1>{messages.incidentsTitle}</h1>
      <Tabs
        label={messages.incidentsTitle}
        tabs={[
          { id: 'open', label: messages.reportsOpen, content: <IncidentList status="open" /> },
          { id: 'resolved', label: messages.reportsResolved, content: <IncidentList status="resolved" /> },
        ]}
      />
    </section>
  );
}
