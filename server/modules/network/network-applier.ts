/**
 * What every applier does (`--network-applier`): read the settings in effect, apply new ones,
 * keep them on confirmation, go back to earlier ones. The safe-apply state machine around them
 * (durable pending apply, timer, rollback at start) is one for all: network-service.ts.
 */
import type { NetworkApplierName, NetworkSettings, WifiNetwork } from '../../contract/network.ts';

/** What the machine says besides the settings; nothing here is ever set. */
export interface NetworkFacts {
  lan: { interfaceName: string; macAddress: string };
  wan: { interfaceName: string; macAddress: string };
  wifi: { interfaceName: string; macAddress: string };
  cellular: {
    imei: string;
    iccid: string;
    signalDbm: number | null;
    /** ModemManager's signal quality, percent. */
    signalQuality: number | null;
    operator: string;
    /** ModemManager's modem state (`registered`, `connected`, `locked`…), '' without a modem. */
    modemState: string;
  };
}

/** What a gateway without a modem (or without ModemManager) shows. */
export const noModem: NetworkFacts['cellular'] = { imei: '', iccid: '', signalDbm: null, signalQuality: null, operator: '', modemState: '' };

/** The settings in effect, secrets included (a rollback must restore them), and the facts. */
export interface NetworkReading {
  settings: NetworkSettings;
  facts: NetworkFacts;
}

/** The apply in progress. */
export interface ApplyWindow {
  applyId: string;
  confirmWithinS: number;
  /**
   * Journals what `confirm` and `rollback` will need (a NetworkManager checkpoint), durably,
   * before the applier goes on: a kill -9 right after still finds it at the next start.
   */
  keep(token: string): void;
}

export interface NetworkApplier {
  readonly name: NetworkApplierName;
  /** Whether applying changes the host's own addresses (false for `file`: the console's address never moves). */
  readonly touchesHost: boolean;
  read(): Promise<NetworkReading>;
  /**
   * Puts `next` in effect. Throws an Error whose message is the failing command's own output; the
   * service then rolls back.
   */
  apply(next: NetworkSettings, window: ApplyWindow): Promise<void>;
  /** Keeps what `apply` did; `token` is what it kept, if anything. */
  confirm(token: string | undefined): Promise<void>;
  /** Puts `previous` back in effect; `token` is what `apply` kept, if it got that far. */
  rollback(previous: NetworkSettings, token: string | undefined): Promise<void>;
  scanWifi(): Promise<WifiNetwork[]>;
}
