import { messages } from '@csomag/domain/messages';
import { paths } from '@csomag/domain/paths';
import { Link } from '../../lib/router.tsx';

export function RegisterChoicePage() {
  return (
    <section className="page narrow center">
      <h1>{messages.registerChoiceTitle}</h1>
      <p>{messages.registerChoiceQuestion}</p>
      <div className="choice">
        <Link className="button primary" to={paths.registerRunner}>
          {messages.registerAsRunner}
        </Link>
        <Link className="button primary" to={paths.registerUser}>
          {messages.registerAsUser}
        </Link>
      </div>
      <p className="muted">
        {messages.registerHaveAccount} <Link to={paths.login}>{messages.registerSignIn}</Link>
      </p>
    </section>
  );
}
