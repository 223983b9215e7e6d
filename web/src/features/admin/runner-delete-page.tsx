import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { ParcelListView } from '../../components/parcel-list.tsx';
import { notify } from '../../lib/notify.ts';
import { adminParcelsQuery, useDeleteRunner } from './api.ts';

/** Parcels the runner still carries: shown when the server refuses the deletion because of them. */
function CarriedParcels({ userName }: { userName: string }) {
  const query = useInfiniteQuery(adminParcelsQuery({ runner: userName, status: 'in_transit' }));
  return <ParcelListView query={query} empty="Nincs nála csomag." showPeople />;
}

export function RunnerDeletePage() {
  // SPEC names the parameter runnerId; the list links it with the runner's user name.
  const userName = useParams().runnerId ?? '';
  const remove = useDeleteRunner(userName);
  const navigate = useNavigate();
  const carries = remove.error instanceof ApiError && remove.error.status === 409;
  return (
    <section className="page narrow">
      <h1>Futár törlése</h1>
      <p>{messages.confirmRunnerDelete(userName)}</p>
      <FormError message={remove.isError ? errorMessage(remove.error) : null} />
      <div className="card-actions">
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending || carries}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                notify.success(messages.runnerDeleted);
                navigate(paths.adminRunners);
              },
            })
          }
        >
          Törlés
        </button>
        <Link className="button" to={paths.adminRunners}>
          Vissza
        </Link>
      </div>
      {carries && (
        <section aria-labelledby="carried-title">
          <h2 id="carried-title">Nála lévő csomagok</h2>
          <CarriedParcels userName={userName} />
        </section>
      )}
    </section>
  );
}
