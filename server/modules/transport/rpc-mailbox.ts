/**
 * Server RPCs for devices on the HTTP device API: kept until the device polls
 * (`GET /api/v1/{token}/rpc`), or handed straight to a poll already waiting. Emptied when the device
 * goes OFFLINE: a command to an absent device is the command module's timeout to report.
 */
import type { RpcRequest } from '../../contract/device-api.ts';
import { LongPollMailbox } from './long-poll-mailbox.ts';

/** Requests kept per device; older ones give way (the command module times them out). */
const QUEUE_MAX = 100;

export class RpcMailbox extends LongPollMailbox<RpcRequest> {
  constructor() {
    super(QUEUE_MAX);
  }
}
