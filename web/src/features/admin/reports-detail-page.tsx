import { messages } from '@csomag/domain/messages';
import type { ParcelDetail } from '@csomag/domain/parcel';
import { paths } from '@csomag/domain/paths';
import { REPORT_TEXT_MAX } from '@csomag/domain/trust';
import { useState } from 'react';
import { useReport, useReportProofs, useResolveReport } from '../../api/trust.ts';
import { TextAreaField } from '../../components/form-field.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { serverErrors } from '../../components/use-server-errors.ts';
import { notify } from '../../lib/notify.ts';
import { Link, useParams } from '../../lib/router.tsx';
import { ParcelEvidence } from './parcel-evidence.tsx';
import { ParcelProofs } from './parcel-proofs.tsx';
import { confirmerText } from './parcel-timeline.tsx';
import { ReportCard } from './reports-page.tsx';

function ResolveForm({ id }: { id: number }) {
  const resolve = useResolveReport(id);
  const [resolution, setResolution] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="card"
      onSubmit={(event) => {
        event.preventDefault();
        resolve.mutateAsync(resolution).then(
          () => notify.success(messages.reportResolvedToast),
          (error: unknown) => {
            const { fields } = serverErrors(error);
            if (fields.resolution) setFieldError(fields.resolution);
            else notify.error(error);
          },
        );
      }}
    >
      <TextAreaField
        id="report-resolution"
        label={messages.reportResolutionLabel}
        value={resolution}
        maxLength={REPORT_TEXT_MAX}
        error={fieldError}
        onChange={(event) => setResolution(event.target.value)}
      />
      <button type="submit" className="button primary" disabled={resolve.isPending}>
        {messages.reportResolve}
      </button>
    </form>
  );
}

/** The delivery's proofs, read by the URL the report names. */
function ReportProofs({ parcelId, proofsUrl }: { parcelId: string; proofsUrl: string }) {
  const query = useReportProofs(proofsUrl);
  return <QueryState query={query}>{(data) => <ParcelProofs parcelId={parcelId} proofs={data.items} />}</QueryState>;
}

/** Who confirmed the QR hand-over the report is about (issue 27), said beside the delivery. */
function HandoverConfirmer({ events }: { events: ParcelDetail['events'] }) {
  const confirmedBy = events.findLast((event) => event.kind === 'handed_over_qr')?.confirmedBy;
  if (!confirmedBy) return null;
  return <p data-testid="report-handover-confirmer">{confirmerText(confirmedBy)}</p>;
}

/** One 'Nem érkezett meg' report with the parcel's timeline, custody chain and proof, and the decision. */
export function ReportPage() {
  const id = useParams().reportId ?? '';
  const query = useReport(id);
  return (
    <section className="page narrow">
      <h1>{messages.reportTitle(id)}</h1>
      <QueryState query={query}>
        {({ report, parcel, proofsUrl }) => (
          <>
            <ReportCard report={report} linked={false} />
            {!report.resolvedAt && <ResolveForm id={report.id} />}
            {parcel && (
              <ParcelEvidence parcel={parcel}>
                <HandoverConfirmer events={parcel.events} />
                {proofsUrl && <ReportProofs parcelId={parcel.id} proofsUrl={proofsUrl} />}
              </ParcelEvidence>
            )}
            <Link className="button" to={paths.adminReports}>
              {messages.adminBack}
            </Link>
          </>
        )}
      </QueryState>
    </section>
  );
}
