import { formatTimestamp } from '@csomag/domain/format';
import { messages } from '@csomag/domain/messages';
import type { PushDevice } from '@csomag/domain/push';
import { PUSH_KINDS_BY_ROLE, type PushKind, pushKindLabels } from '@csomag/domain/push-kinds';
import type { Role } from '@csomag/domain/roles';
import { useEffect, useId, useState } from 'react';
import { KindSwitches } from '../../components/kind-switches.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { notify } from '../../lib/notify.ts';
import {
  getVapidKey,
  useAddPushDevice,
  usePushDevices,
  usePushPreferences,
  useRemovePushDevice,
  useUpdatePushPreferences,
} from './api.ts';
import {
  currentEndpoint,
  PushDeviceError,
  type PushSupport,
  pushSupport,
  subscribeThisDevice,
  unsubscribeThisDevice,
} from './push-device.ts';

/** The id the server gave this browser's device, so the list can say which one is this. */
const THIS_DEVICE_KEY = 'csomag.pushDeviceId';

function storedDeviceId(): number | null {
  const value = Number(localStorage.getItem(THIS_DEVICE_KEY));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** This browser's device id, when it is subscribed and the server gave it one. */
function useThisDevice(): [number | null, (id: number | null) => void, PushSupport] {
  const [support, setSupport] = useState<PushSupport>('unsupported');
  const [id, setId] = useState<number | null>(null);
  useEffect(() => {
    setSupport(pushSupport());
    void currentEndpoint().then((endpoint) => setId(endpoint ? storedDeviceId() : null));
  }, []);
  const remember = (next: number | null) => {
    if (next === null) localStorage.removeItem(THIS_DEVICE_KEY);
    else localStorage.setItem(THIS_DEVICE_KEY, String(next));
    setId(next);
  };
  return [id, remember, support];
}

/** The profile's 'Értesítések' section: opt this device in, this account's devices, a switch per kind. */
export function PushSettings({ role }: { role: Role }) {
  const titleId = useId();
  const devices = usePushDevices();
  const [thisDevice, setThisDevice, support] = useThisDevice();
  const add = useAddPushDevice();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const listed = devices.data?.some((device) => device.id === thisDevice) ?? false;

  async function enable() {
    setBusy(true);
    setProblem(null);
    try {
      const subscription = await subscribeThisDevice(await getVapidKey());
      const device = await add.mutateAsync(subscription);
      setThisDevice(device.id);
      notify.success(messages.pushEnabled);
    } catch (error) {
      if (error instanceof PushDeviceError) setProblem(error.message);
      else notify.error(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card push-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>{messages.pushTitle}</h2>
      <p>{messages.pushIntro}</p>
      {support === 'unsupported' ? (
        <p>{messages.pushUnsupported}</p>
      ) : support === 'denied' ? (
        <p>{messages.pushPermissionDenied}</p>
      ) : listed ? (
        <p>{messages.pushThisDeviceOn}</p>
      ) : (
        <div className="card-actions">
          <button type="button" className="button primary" onClick={enable} disabled={busy}>
            {busy ? messages.pushEnabling : messages.pushEnable}
          </button>
        </div>
      )}
      {problem ? (
        <p role="alert" className="form-error">
          {problem}
        </p>
      ) : null}
      <h3>{messages.pushDevicesTitle}</h3>
      <QueryState query={devices} empty={messages.pushNoDevices} isEmpty={(items) => items.length === 0}>
        {(items) => (
          <ul className="push-devices">
            {items.map((device) => (
              <DeviceRow
                key={device.id}
                device={device}
                isThisDevice={device.id === thisDevice}
                onRemoved={() => {
                  if (device.id === thisDevice) setThisDevice(null);
                }}
              />
            ))}
          </ul>
        )}
      </QueryState>
      {PUSH_KINDS_BY_ROLE[role].length > 0 ? <PushKindSwitches kinds={PUSH_KINDS_BY_ROLE[role]} /> : null}
    </section>
  );
}

function DeviceRow({
  device,
  isThisDevice,
  onRemoved,
}: {
  device: PushDevice;
  isThisDevice: boolean;
  onRemoved: () => void;
}) {
  const remove = useRemovePushDevice();
  const label = device.label ?? messages.pushUnknownDevice;
  async function removeDevice() {
    try {
      await remove.mutateAsync(device.id);
      // This browser stops listening too, so it does not come back with its next subscription.
      if (isThisDevice) await unsubscribeThisDevice();
      onRemoved();
      notify.success(messages.pushDeviceRemoved);
    } catch (error) {
      notify.error(error);
    }
  }
  return (
    <li>
      <span>
        <strong>{label}</strong> {isThisDevice ? messages.pushThisDevice : null}
        <br />
        <small>{messages.pushDeviceAdded(formatTimestamp(device.createdAt))}</small>
      </span>{' '}
      <button
        type="button"
        className="button danger"
        aria-label={messages.pushRemoveDeviceNamed(label)}
        disabled={remove.isPending}
        onClick={removeDevice}
      >
        {messages.pushRemoveDevice}
      </button>
    </li>
  );
}

function PushKindSwitches({ kinds }: { kinds: readonly PushKind[] }) {
  const update = useUpdatePushPreferences();
  return (
    <KindSwitches
      className="push-kinds"
      legend={messages.pushKindsTitle}
      kinds={kinds}
      labels={pushKindLabels}
      state={usePushPreferences()}
      save={(kind, on) => update.mutateAsync({ kinds: { [kind]: on } })}
      saving={update.isPending}
      saved={messages.pushPreferencesSaved}
    />
  );
}
