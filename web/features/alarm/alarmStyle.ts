/** Tag colours of alarm severities and statuses (worst severity reddest; active louder than cleared). */
import type { AlarmSeverity, AlarmStatus } from '../../../server/contract/alarm.ts';

export const severityColors: Record<AlarmSeverity, string> = {
  CRITICAL: 'red',
  MAJOR: 'orangered',
  MINOR: 'orange',
  WARNING: 'gold',
  INDETERMINATE: 'gray',
};

export const alarmStatusColors: Record<AlarmStatus, string> = {
  ACTIVE_UNACK: 'red',
  ACTIVE_ACK: 'orange',
  CLEARED_UNACK: 'blue',
  CLEARED_ACK: 'gray',
};
