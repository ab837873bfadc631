/** Tag colours of Modbus outcomes (the TCP link tab and the write dialog). */
import type { PointOutcome } from '../../../server/contract/modbus.ts';

export const outcomeColors: Record<PointOutcome, string> = {
  OK: 'green',
  TIMEOUT: 'orange',
  EXCEPTION: 'red',
  CRC_ERROR: 'red',
  BAD_FRAME: 'red',
  NOT_CONNECTED: 'gray',
  BAD_DESCRIPTOR: 'red',
};
