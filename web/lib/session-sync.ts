/**
 * Keeps the tabs of one sign-in on the same tokens. A refresh token is single-use: the server takes
 * the reuse of a rotated one as theft and ends the whole sign-in. Two tabs that share a sign-in
 * (storage shared with "remember", or a duplicated tab) must therefore never both refresh with
 * the same token: whichever refreshes tells the others, which adopt the new pair.
 */
import type { TokenPair } from '../../server/contract/auth.ts';

const CHANNEL = 'edge-console-session';

/** Sent by the tab that rotated `previous` into `pair`. */
export interface RotationMessage {
  previous: string;
  pair: TokenPair;
}

/** The pair a tab holding `current` should adopt from a peer's rotation, or null when it is not this tab's sign-in. */
export function adoptedPair(current: string | null, message: RotationMessage): TokenPair | null {
  return current !== null && current === message.previous ? message.pair : null;
}

let channel: BroadcastChannel | null = null;

/** Listens for rotations by other tabs; `current` is this tab's refresh token, `adopt` stores a peer's pair. */
export function listenForRotations(current: () => string | null, adopt: (pair: TokenPair) => void): void {
  if (typeof BroadcastChannel === 'undefined' || channel) return;
  channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<RotationMessage>) => {
    const pair = adoptedPair(current(), event.data);
    if (pair) adopt(pair);
  };
}

/** Tells the other tabs that `previous` was rotated into `pair`. */
export function announceRotation(previous: string, pair: TokenPair): void {
  channel?.postMessage({ previous, pair } satisfies RotationMessage);
}
