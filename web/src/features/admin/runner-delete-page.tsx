import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { ApiError } from '../../api/client.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { useParams } from '../../lib/router.tsx';
import { useAdminParcels, useDeleteRunner } from './api.ts';
import { ConfirmDelete, DeletePage } from './confirm-delete.tsx';

/** Parcels the runner still carries: shown when the server refuses the deletion because of them. */
function CarriedParcels({ userName }: { userName: string }) {
  const query = useAdminParcels({ runner: userName, status: 'in_transit' });
  return <ParcelListView query={query} empty={messages.adminCarriedParcelsEmpty} showPeople />;
}

export function RunnerDeletePage() {
  // SPEC names the parameter runnerId; the list links it with the runner's user name.
  const userName = useParams().runnerId ?? '';
  const remove = useDeleteRunner(userName);
  const carries = remove.error instanceof ApiError && remove.error.code === 'runner_carries_parcels';
  return (
    <DeletePage title={messages.adminDeleteRunnerTitle}>
      <ConfirmDelete
        question={messages.confirmRunnerDelete(userName)}
        onDelete={() => remove.mutateAsync()}
        deletedMessage={messages.runnerDeleted}
        backTo={paths.adminRunners}
        disabled={carries}
      >
        {carries && (
          <section aria-labelledby="carried-title">
            <h2 id="carried-title">{messages.adminCarriedParcelsTitle}</h2>
            <CarriedParcels userName={userName} />
          </section>
        )}
      </ConfirmDelete>
    </DeletePage>
  );
}
