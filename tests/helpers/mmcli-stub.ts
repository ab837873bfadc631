/**
 * `mmcli` faked at the process boundary: a shell script on PATH that records every call and answers
 * `-J` with the JSON shapes ModemManager's mmcli writes (cli/mmcli-output.c: every value a string,
 * "--" for one it does not have). One modem with one SIM that waits for its PIN until
 * `mmcli -i <sim> --pin=<the right PIN>` is sent; then it registers with an operator.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir } from './app.ts';

export const MODEM = '/org/freedesktop/ModemManager1/Modem/0';
export const SIM = '/org/freedesktop/ModemManager1/SIM/0';
export const IMEI = '866758041234567';
export const ICCID = '89860321245678901234';

/** `mmcli -m 0 -J` of a Quectel EC25 as ModemManager 1.20 prints it, trimmed of ports and bands. */
function modemJson(unlocked: boolean): object {
  return {
    modem: {
      '3gpp': {
        'enabled-locks': ['fixed-dialing'],
        eps: { 'initial-bearer': { 'dbus-path': '--', settings: { apn: '--', 'ip-type': '--', password: '--', user: '--' } }, 'ue-mode-operation': 'csps-2' },
        // A locked modem exposes no 3GPP interface yet; its equipment identifier is the IMEI.
        imei: unlocked ? IMEI : '--',
        'operator-code': unlocked ? '46000' : '--',
        'operator-name': unlocked ? 'CHINA MOBILE' : '--',
        'packet-service-state': unlocked ? 'attached' : '--',
        pco: '--',
        'registration-state': unlocked ? 'home' : '--',
      },
      cdma: { activation: '--', 'cdma1x-registration-state': '--', esn: '--', 'evdo-registration-state': '--', meid: '--', nid: '--', sid: '--' },
      'dbus-path': MODEM,
      generic: {
        'access-technologies': unlocked ? ['lte'] : [],
        bearers: [],
        'carrier-configuration': 'ROW_Generic_3GPP',
        device: '/sys/devices/platform/soc/1c1b000.usb/usb3/3-1',
        'equipment-identifier': IMEI,
        manufacturer: 'QUALCOMM INCORPORATED',
        model: 'QUECTEL Mobile Broadband Module',
        'own-numbers': [],
        plugin: 'quectel',
        'power-state': 'on',
        'primary-port': 'cdc-wdm0',
        revision: 'EC25EFAR06A06M4G',
        'signal-quality': { recent: unlocked ? 'yes' : 'no', value: unlocked ? '67' : '0' },
        sim: SIM,
        state: unlocked ? 'registered' : 'locked',
        'state-failed-reason': '--',
        'unlock-required': unlocked ? 'none' : 'sim-pin',
        'unlock-retries': ['sim-pin (3)', 'sim-puk (10)'],
      },
    },
  };
}

const simJson = {
  sim: {
    'dbus-path': SIM,
    properties: { active: 'yes', eid: '--', 'emergency-numbers': [], 'esim-status': '--', gid1: '--', gid2: '--', iccid: ICCID, imsi: '460001234567890', 'operator-code': '46000', 'operator-name': 'CMCC', removability: '--', 'sim-type': '--' },
  },
};

const signalJson = {
  modem: {
    signal: {
      '5g': { 'error-rate': '--', rsrp: '--', rsrq: '--', snr: '--' },
      cdma1x: { ecio: '--', 'error-rate': '--', rssi: '--' },
      evdo: { ecio: '--', 'error-rate': '--', io: '--', rssi: '--', sinr: '--' },
      gsm: { 'error-rate': '--', rssi: '--' },
      lte: { 'error-rate': '--', rsrp: '-95.00', rsrq: '-11.00', rssi: '-67.00', snr: '8.20' },
      refresh: { rate: '30' },
      threshold: { 'error-rate': 'no', rssi: '0' },
      umts: { ecio: '--', 'error-rate': '--', rscp: '--', rssi: '--' },
    },
  },
};

const script = (dir: string, pin: string): string => `#!/bin/sh
d='${dir}'
printf '%s\\t' mmcli "$@" >> "$d/calls"; echo >> "$d/calls"
case "$*" in
  "-L -J") cat "$d/list.json" ;;
  "-m ${MODEM} -J") if [ -f "$d/unlocked" ]; then cat "$d/modem-unlocked.json"; else cat "$d/modem-locked.json"; fi ;;
  "-m ${MODEM} --signal-get -J") cat "$d/signal.json" ;;
  "-i ${SIM} -J") cat "$d/sim.json" ;;
  "-i ${SIM} --pin=${pin}") touch "$d/unlocked"; echo 'successfully sent PIN code to the SIM' ;;
  "-i ${SIM} --pin="*) echo "error: couldn't send PIN code to the SIM: 'GDBus.Error:org.freedesktop.ModemManager1.Error.MobileEquipment.IncorrectPassword: Incorrect password'" >&2; exit 1 ;;
  *) echo "error: unexpected call (stub)" >&2; exit 1 ;;
esac
`;

export interface MmcliStub {
  dir: string;
  calls(): string[][];
}

let savedPath: string | undefined;
afterEach(() => {
  if (savedPath !== undefined) process.env.PATH = savedPath;
  savedPath = undefined;
});

/**
 * Writes the stub: a modem whose SIM wants `pin` (already given with `unlocked`), or none with
 * `modem: false`. Unless `onPath` is false it goes first on this process's PATH until the test ends;
 * `dir` (an existing directory) outlives the test, for a gateway shared by a file's tests.
 */
export function makeMmcliStub(opts: { pin: string; modem?: boolean; unlocked?: boolean; onPath?: boolean; dir?: string }): MmcliStub {
  const dir = opts.dir ?? tempDir('edge-mmcli-');
  if (opts.unlocked) writeFileSync(join(dir, 'unlocked'), '');
  writeFileSync(join(dir, 'list.json'), JSON.stringify({ 'modem-list': opts.modem === false ? [] : [MODEM] }));
  writeFileSync(join(dir, 'modem-locked.json'), JSON.stringify(modemJson(false)));
  writeFileSync(join(dir, 'modem-unlocked.json'), JSON.stringify(modemJson(true)));
  writeFileSync(join(dir, 'sim.json'), JSON.stringify(simJson));
  writeFileSync(join(dir, 'signal.json'), JSON.stringify(signalJson));
  writeFileSync(join(dir, 'mmcli'), script(dir, opts.pin));
  chmodSync(join(dir, 'mmcli'), 0o755);
  if (opts.onPath !== false) {
    savedPath ??= process.env.PATH;
    process.env.PATH = `${dir}:${process.env.PATH ?? ''}`;
  }
  const calls = (): string[][] =>
    (existsSync(join(dir, 'calls')) ? readFileSync(join(dir, 'calls'), 'utf8') : '').split('\n').filter(Boolean).map((l) => l.replace(/\t$/, '').split('\t'));
  return { dir, calls };
}
