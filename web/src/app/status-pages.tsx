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

/** Placeholder for screens whose work is still open. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      <p>{messages.comingSoon}</p>
    </section>
  );
}
