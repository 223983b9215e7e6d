import { TOAST_AUTO_CLOSE_MS } from '@csomag/domain/constants';
import { Bounce, ToastContainer } from 'react-toastify';

/** SPEC §9: toasts at the bottom centre for 3500 ms. Loaded with the first toast (lib/notify.ts). */
export default function ToastHost() {
  return <ToastContainer position="bottom-center" autoClose={TOAST_AUTO_CLOSE_MS} transition={Bounce} newestOnTop />;
}
