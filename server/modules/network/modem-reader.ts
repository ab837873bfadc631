/**
 * The 4G modem as ModemManager sees it, read with `mmcli -J` (no D-Bus binding, no native addon).
 * mmcli's JSON writes every value as a string and "--" for one it does not have
 * (ModemManager cli/mmcli-output.c); the shapes parsed here are `mmcli -L -J` (`modem-list`),
 * `mmcli -m <modem> -J` (`modem.3gpp.imei`, `modem.3gpp.operator-name`, `modem.generic.state`,
 * `modem.generic.signal-quality.value`, `modem.generic.unlock-required`, `modem.generic.sim`),
 * `mmcli -i <sim> -J` (`sim.properties.iccid`) and `mmcli -m <modem> --signal-get -J`
 * (`modem.signal.<technology>.rssi` in dBm, "--" until signal polling was set up).
 */
import { noModem, type NetworkFacts } from './network-applier.ts';
import { run } from './openwrt-applier.ts';

export type ModemFacts = NetworkFacts['cellular'];

type Json = Record<string, unknown>;

/** A value at a dotted path of mmcli's JSON, '' for mmcli's "--" or a missing one. */
function at(json: unknown, path: string): string {
  let v: unknown = json;
  for (const key of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Json)[key] : undefined;
  return typeof v === 'string' && v !== '--' ? v : '';
}

const numberOrNull = (text: string): number | null => (text === '' || !Number.isFinite(Number(text)) ? null : Number(text));

export function parseModemList(out: string): string[] {
  const list = (JSON.parse(out) as { 'modem-list'?: unknown })['modem-list'];
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
}

export interface ModemStatus {
  imei: string;
  operator: string;
  state: string;
  signalQuality: number | null;
  /** What the modem waits for before it registers: `sim-pin`, `sim-puk`, '' (mmcli's "none" too). */
  unlockRequired: string;
  simPath: string;
}

export function parseModem(out: string): ModemStatus {
  const json = JSON.parse(out) as unknown;
  const unlock = at(json, 'modem.generic.unlock-required');
  const quality = numberOrNull(at(json, 'modem.generic.signal-quality.value'));
  return {
    // The 3GPP IMEI; a modem that reports none there still has its equipment identifier (the IMEI on GSM/LTE).
    imei: at(json, 'modem.3gpp.imei') || at(json, 'modem.generic.equipment-identifier'),
    operator: at(json, 'modem.3gpp.operator-name'),
    state: at(json, 'modem.generic.state'),
    signalQuality: quality === null ? null : Math.round(quality),
    unlockRequired: unlock === 'none' ? '' : unlock,
    simPath: at(json, 'modem.generic.sim'),
  };
}

export const parseSimIccid = (out: string): string => at(JSON.parse(out) as unknown, 'sim.properties.iccid');

/** The RSSI of the newest technology that reports one, dBm. */
export function parseSignalDbm(out: string): number | null {
  const json = JSON.parse(out) as unknown;
  for (const tech of ['5g', 'lte', 'umts', 'gsm', 'evdo', 'cdma1x']) {
    const rssi = numberOrNull(at(json, `modem.signal.${tech}.rssi`));
    if (rssi !== null) return Math.round(rssi);
  }
  return null;
}

/** The first modem ModemManager knows, or null (no modem, no ModemManager, no mmcli). */
export async function findModem(): Promise<{ path: string; status: ModemStatus } | null> {
  const list = await run('mmcli', ['-L', '-J']).then(parseModemList, () => []);
  const path = list[0];
  if (!path) return null;
  return { path, status: parseModem(await run('mmcli', ['-m', path, '-J'])) };
}

/** The modem's facts; a modem that does not answer reads as none, never as an error of the page. */
export async function readModem(): Promise<ModemFacts> {
  try {
    const modem = await findModem();
    if (!modem) return noModem;
    const { status } = modem;
    const iccid = status.simPath ? await run('mmcli', ['-i', status.simPath, '-J']).then(parseSimIccid, () => '') : '';
    const signalDbm = await run('mmcli', ['-m', modem.path, '--signal-get', '-J']).then(parseSignalDbm, () => null);
    return { imei: status.imei, iccid, signalDbm, signalQuality: status.signalQuality, operator: status.operator, modemState: status.state };
  } catch {
    return noModem;
  }
}

/**
 * Unlocks the SIM with its PIN when the modem waits for one (ModemManager remembers nothing: after
 * each power-up the SIM asks again, and NetworkManager's gsm.pin only helps while its profile
 * activates). Nothing to do without a modem or when the SIM is not locked.
 */
export async function unlockSim(pin: string): Promise<void> {
  const modem = await findModem().catch(() => null);
  if (!modem || modem.status.unlockRequired !== 'sim-pin' || !modem.status.simPath) return;
  await run('mmcli', ['-i', modem.status.simPath, `--pin=${pin}`]);
}
