import { messages } from '@csomag/domain/messages';
import { Link } from 'react-router';

export function Loading() {
  return (
    <p className="loading" role="status">
      {messages.loading}
    </p>
  );
}

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
