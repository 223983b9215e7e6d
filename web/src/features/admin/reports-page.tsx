import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import type { Report } from '@csomag/domain/trust';
import { useReports } from '../../api/trust.ts';
import { LoadMore } from '../../components/load-more.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { Link } from '../../lib/router.tsx';

/** A report as listed; `linked`: with 'Részletek' to its own page (not on that page itself). */
export function ReportCard({ report, linked = true }: { report: Report; linked?: boolean }) {
  return (
    <article className="card parcel-card" aria-label={messages.reportTitle(report.id)}>
      <header>
        <strong>{messages.reportTitle(report.id)}</strong>
        <span className="mono">{report.parcelId}</span>
      </header>
      <p>
        {messages.reportReporter}: <strong>{report.reporter ?? '—'}</strong> · {messages.reportRunner}:{' '}
        <strong>{report.runner ?? '—'}</strong>
      </p>
      <p className="muted">
        {messages.reportCreatedAt}: {formatTimestamp(report.createdAt)}
      </p>
      <p>{report.description}</p>
      {report.resolvedAt && (
        <p>
          {messages.reportResolvedBy(report.resolvedBy ?? '—', formatTimestamp(report.resolvedAt))}: {report.resolution}
        </p>
      )}
      {linked && (
        <div className="card-actions">
          <Link className="button" to={paths.adminReport(report.id)}>
            {messages.reportOpenDetails}
          </Link>
        </div>
      )}
    </article>
  );
}

function ReportList({ status }: { status: 'open' | 'resolved' }) {
  const query = useReports(status);
  return (
    <>
      <QueryState
        query={query}
        empty={messages.reportsEmpty}
        isEmpty={(data) => data.pages.every((page) => page.items.length === 0)}
      >
        {(data) => (
          <ul className="parcel-list">
            {data.pages
              .flatMap((page) => page.items)
              .map((report) => (
                <li key={report.id}>
                  <ReportCard report={report} />
                </li>
              ))}
          </ul>
        )}
      </QueryState>
      <LoadMore query={query} />
    </>
  );
}

/** 'Bejelentések' (issue 15): the 'Nem érkezett meg' reports, open first. */
export function ReportsPage() {
  return (
    <section className="page">
      <h1>{messages.reportsTitle}</h1>
      {/* The back office's other queues of issue 28, beside the reports (the menu has no room for more). */}
      <nav className="card-actions" aria-label={messages.reportsMoreLabel}>
        <Link className="button" to={paths.adminIncidents}>
          {messages.incidentsMenu}
        </Link>
        <Link className="button" to={paths.adminDropPoints}>
          {messages.dropPointsMenu}
        </Link>
        <Link className="button" to={paths.adminMail}>
          {messages.mailOutboxMenu}
        </Link>
      </nav>
      <Tabs
        label={messages.reportsTitle}
        tabs={[
          { id: 'open', label: messages.reportsOpen, content: <ReportList status="open" /> },
          { id: 'resolved', label: messages.reportsResolved, content: <ReportList status="resolved" /> },
        ]}
      />
    </section>
  );
}
