export { Loading } from '../components/loading.tsx';

import { messages } from '@csomag/domain/messages';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page narrow center">
      <h1>{messages.pageNotFound}</h1>
      <p>A keresett oldal nem létezik, vagy elköltözött.</p>
      <Link className="button" to="/">
        Vissza a főoldalra
      </Link>
    </section>
  );
}

/** Shown instead of a blank screen when a page fails unexpectedly. */
export function ErrorPage() {
  return (
    <section className="page narrow center" role="alert">
      <h1>Hiba történt</h1>
      <p>{messages.serverError}</p>
      <a className="button" href="/">
        Vissza a főoldalra
      </a>
    </section>
  );
}
