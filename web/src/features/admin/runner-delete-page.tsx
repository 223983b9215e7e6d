import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { adminParcelsQuery, useDeleteRunner } from './api.ts';
import { ConfirmDelete } from './confirm-delete.tsx';

/** Parcels the runner still carries: shown when the server refuses the deletion because of them. */
function CarriedParcels({ userName }: { userName: string }) {
  const query = useInfiniteQuery(adminParcelsQuery({ runner: userName, status: 'in_transit' }));
  return <ParcelListView query={query} empty="Nincs nála csomag." showPeople />;
}

export function RunnerDeletePage() {
  // SPEC names the parameter runnerId; the list links it with the runner's user name.
  const userName = useParams().runnerId ?? '';
  const remove = useDeleteRunner(userName);
  const carries = remove.error instanceof ApiError && remove.error.status === 409;
  return (
    <ConfirmDelete
      title="Futár törlése"
      question={messages.confirmRunnerDelete(userName)}
      remove={remove}
      deletedMessage={messages.runnerDeleted}
      backTo={paths.adminRunners}
      disabled={carries}
    >
      {carries && (
        <section aria-labelledby="carried-title">
          <h2 id="carried-title">Nála lévő csomagok</h2>
          <CarriedParcels userName={userName} />
        </section>
      )}
    </ConfirmDelete>
  );
}
