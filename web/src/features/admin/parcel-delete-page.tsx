import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { FormError } from '../../components/form-field.tsx';
import { notify } from '../../lib/notify.ts';
import { useDeleteParcel } from './api.ts';

export function AdminParcelDeletePage() {
  const parcelId = useParams().packageId ?? '';
  const remove = useDeleteParcel(parcelId);
  const navigate = useNavigate();
  return (
    <section className="page narrow">
      <h1>Csomag törlése</h1>
      <p>{messages.confirmParcelDelete(parcelId)}</p>
      <FormError message={remove.isError ? errorMessage(remove.error) : null} />
      <div className="card-actions">
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                notify.success(messages.parcelDeleted);
                navigate(paths.adminParcels);
              },
            })
          }
        >
          Törlés
        </button>
        <Link className="button" to={paths.adminParcels}>
          Vissza
        </Link>
      </div>
    </section>
  );
}
