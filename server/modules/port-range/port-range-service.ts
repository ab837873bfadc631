/** The port range of the system configuration, stored as JSON in the `setting` row id='portRange'. */
import type { Db } from '../../db/sqlite.ts';
import { readSetting, writeSetting } from '../../db/setting-store.ts';
import { PORT_RANGE_DEFAULT, portRangeProblem, type PortRange } from '../../contract/port-range.ts';
import { assertNoViolations } from '../../lib/field-errors.ts';

const SETTING_ID = 'portRange';

export class PortRangeService {
  constructor(private readonly db: Db) {}

  get(): PortRange {
    const stored = readSetting<PortRange>(this.db, SETTING_ID)?.value;
    return stored && !portRangeProblem(stored) ? { start: stored.start, end: stored.end } : { ...PORT_RANGE_DEFAULT };
  }

  save(body: PortRange): PortRange {
    const problem = portRangeProblem(body);
    assertNoViolations(problem ? [{ field: 'end', key: problem }] : []);
    writeSetting(this.db, SETTING_ID, body);
    return this.get();
  }

  /** Whether `port` lies within the range, both ends included. */
  contains(port: number): boolean {
    const { start, end } = this.get();
    return port >= start && port <= end;
  }
}
