export { Loading } from '../components/loading.tsx';

import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { Link } from '../lib/router.tsx';

export function NotFoundPage() {
  return (
    <section className="page narrow center">
      <h1>{messages.pageNotFound}</h1>
      <p>{messages.pageNotFoundText}</p>
      <Link className="button" to={paths.home}>
        {messages.backToHome}
      </Link>
    </section>
  );
}

/** Shown instead of a blank screen when a page fails unexpectedly. */
export function ErrorPage() {
  return (
    <section className="page narrow center" role="alert">
      <h1>{messages.errorPageTitle}</h1>
      <p>{messages.serverError}</p>
      <a className="button" href={paths.home}>
        {messages.backToHome}
      </a>
    </section>
  );
}
