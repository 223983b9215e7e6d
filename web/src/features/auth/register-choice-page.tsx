import { paths } from '@csomag/domain/paths';
import { Link } from 'react-router';

export function RegisterChoicePage() {
  return (
    <section className="page narrow center">
      <h1>Regisztráció</h1>
      <p>Csomagot küldenél, vagy futárként szállítanál?</p>
      <div className="choice">
        <Link className="button primary" to={paths.registerRunner}>
          Regisztráció futárként
        </Link>
        <Link className="button primary" to={paths.registerUser}>
          Regisztráció felhasználóként
        </Link>
      </div>
      <p className="muted">
        Van már fiókod? <Link to={paths.login}>Bejelentkezés</Link>
      </p>
    </section>
  );
}
