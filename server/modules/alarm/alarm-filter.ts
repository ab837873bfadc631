/** Which alarms a list, a count or a live view selects (the repository turns it into SQL). */
import type { AlarmSeverity, AlarmStatus } from '../../contract/alarm.ts';

export interface AlarmFilter {
  statuses?: readonly AlarmStatus[];
  severities?: readonly AlarmSeverity[];
  types?: readonly string[];
  deviceIds?: readonly string[];
  organizationIds?: readonly string[];
  sceneLinkageId?: string;
  startTime?: number;
  endTime?: number;
  text?: string;
}

