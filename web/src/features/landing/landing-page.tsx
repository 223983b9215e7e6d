import { paths } from '@csomag/domain/paths';
import { Link } from 'react-router';
import { Testimonials } from './testimonials.tsx';

const usefulInfo = [
  'Feladáskor a csomag azonnal megjelenik a futárok térképén.',
  'A csomagazonosítóval bárki követheti a csomagot, regisztráció nélkül.',
  'A futár csak a címtől 15 méteren belül adhatja le a csomagot, vagy QR kóddal, amelyet te hagysz jóvá.',
  'Futárnak bárki jelentkezhet: gyalog, biciklivel vagy tömegközlekedéssel is szállíthatsz.',
  'A súlyt grammban add meg, a címet irányítószámmal együtt.',
];

export function LandingPage() {
  return (
    <div className="landing">
      <section className="hero">
        <h1>Csomagot küldenél? Egy szomszéd már viszi is.</h1>
        <p className="lead">
          Közösségi csomagküldés az egész országban: bárki feladhat csomagot, és bárki lehet futár. Városon belül akár
          percek alatt.
        </p>
        <div className="actions">
          <Link className="button primary" to={paths.registerChoice}>
            Regisztráció
          </Link>
          <Link className="button" to={paths.login}>
            Bejelentkezés
          </Link>
        </div>
      </section>

      <section className="about" aria-labelledby="about-title">
        <h2 id="about-title">Rólunk</h2>
        <p>
          A Csomagküldő összeköti azokat, akik csomagot küldenének, azokkal, akik amúgy is arra járnak. Nincs raktár,
          nincs várakozás: a futár felveszi a csomagot a feladónál, és egyenesen a címzetthez viszi – akár
          tömegközlekedéssel. Költséghatékony, gyors, és minden lépését követheted élőben a térképen.
        </p>
        <Link className="button primary" to={paths.registerChoice}>
          Vágj bele
        </Link>
      </section>

      <section className="useful" aria-labelledby="useful-title">
        <h2 id="useful-title">Hasznos tudnivalók</h2>
        <ul>
          {usefulInfo.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>

      <Testimonials />
    </div>
  );
}
