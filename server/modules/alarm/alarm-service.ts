/**
 * Alarm rules (server/contract/alarm.ts): one open alarm per (scene, device, type), the four
 * statuses, ack and clear singly and in batches, counts per organization subtree. Every change is
 * announced as `alarm.changed` (the live ALARM_DATA / ALARM_COUNT views and the workbench card).
 */
import { inScope, organizationsWithin, type DeviceScope } from '../../lib/device-scope.ts';
import type { Alarm, AlarmBatchResult, AlarmDetails, AlarmListQuery, AlarmPage, AlarmProfile, AlarmSeverity, AlarmStatus } from '../../contract/alarm.ts';
import { alarmSeverities, alarmStatuses } from '../../contract/alarm.ts';
import type { Device } from '../../contract/device.ts';
import type { OrganizationService } from '../organization/organization-service.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { translate } from '../../lib/messages.ts';
import { notFound, violationError } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AlarmFilter } from './alarm-filter.ts';
import { AlarmRepository, filterOfQuery } from './alarm-repository.ts';

export interface AlarmServiceDeps {
  db: Db;
  bus: EventBus;
  organizations: Pick<OrganizationService, 'subtreeIds' | 'exists'>;
}

/** What raises an alarm: the scene, the device that fired (none for schedule or manual runs), the action's fields. */
export interface AlarmRaise {
  scene: { id: string; name: string };
  triggerIndex: number | null;
  device: Pick<Device, 'id' | 'name' | 'alias' | 'organizationId'> | null;
  severity: AlarmSeverity;
  type: string;
  details: AlarmDetails;
  ts?: number;
}

const ackOf: Partial<Record<AlarmStatus, AlarmStatus>> = { ACTIVE_UNACK: 'ACTIVE_ACK', CLEARED_UNACK: 'CLEARED_ACK' };
const clearOf: Partial<Record<AlarmStatus, AlarmStatus>> = { ACTIVE_UNACK: 'CLEARED_UNACK', ACTIVE_ACK: 'CLEARED_ACK' };

export class AlarmService {
  readonly rows: AlarmRepository;

  constructor(private readonly deps: AlarmServiceDeps) {
    this.rows = new AlarmRepository(deps.db);
  }

  /** `scope`: a customer's organizations (server/lib/device-scope.ts); alarms of other devices are not there for them. */
  page(query: AlarmListQuery, scope: DeviceScope = null): AlarmPage {
    if (query.startTime !== undefined && query.endTime !== undefined && query.endTime < query.startTime) {
      throw violationError([{ field: 'endTime', key: 'error.alarm.rangeInvalid' }], 'querystring');
    }
    const filter = filterOfQuery(query);
    return this.rows.page({ ...filter, organizationIds: organizationsWithin(scope, filter.organizationIds) }, query.page, query.pageSize);
  }

  search(filter: AlarmFilter, page: number, pageSize: number): AlarmPage {
    return this.rows.page(filter, page, pageSize);
  }

  count(filter: AlarmFilter): number {
    return this.rows.count(filter);
  }

  /** An alarm outside `scope` is answered as one that does not exist. */
  get(id: string, scope: DeviceScope = null): Alarm {
    const alarm = this.rows.findById(id);
    if (!alarm || !inScope(scope, alarm.organizationId ?? null)) throw notFound();
    return alarm;
  }

  /** Raises an alarm, or updates the open one of (scene, device, type). */
  raise(r: AlarmRaise): Alarm {
    const ts = r.ts ?? Date.now();
    const deviceId = r.device?.id ?? null;
    const { previous, id } = transaction(this.deps.db, () => {
      const open = this.rows.findOpen(r.scene.id, deviceId, r.type);
      if (open) {
        this.rows.refire(open.id, r.severity, ts, r.details);
        return { previous: open, id: open.id };
      }
      const alarm: Alarm = {
        id: newId(),
        sceneLinkageId: r.scene.id,
        sceneName: r.scene.name,
        deviceId,
        deviceName: r.device?.name ?? null,
        deviceAlias: r.device?.alias ?? null,
        organizationId: r.device?.organizationId ?? null,
        severity: r.severity,
        type: r.type,
        status: 'ACTIVE_UNACK',
        startTs: ts,
        endTs: ts,
        createdTime: ts,
        ackTs: null,
        clearTs: null,
        count: 1,
        details: r.details,
      };
      this.rows.insert(alarm, r.triggerIndex);
      return { previous: null, id: alarm.id };
    });
    const alarm = this.get(id);
    this.deps.bus.emit('alarm.changed', { alarm, previous });
    return alarm;
  }

  /** Clears the open alarm of a source (a scene, a Node-RED instance), device and type; null when none is open. */
  clearOpen(sourceId: string, deviceId: string | null, type: string): Alarm | null {
    const open = this.rows.findOpen(sourceId, deviceId, type);
    return open ? this.move(open, clearOf, 'clear_ts') : null;
  }

  /** Clears the open alarms a scene's trigger raised on a device (the trigger's clear rule held). */
  clearRaisedBy(sceneLinkageId: string, triggerIndex: number, deviceId: string | null): number {
    const open = this.rows.openOfTrigger(sceneLinkageId, triggerIndex, deviceId);
    for (const alarm of open) this.move(alarm, clearOf, 'clear_ts');
    return open.length;
  }

  ack(id: string, scope: DeviceScope = null): Alarm {
    return this.move(this.get(id, scope), ackOf, 'ack_ts');
  }

  clear(id: string, scope: DeviceScope = null): Alarm {
    return this.move(this.get(id, scope), clearOf, 'clear_ts');
  }

  batchAck(ids: readonly string[], scope: DeviceScope = null): AlarmBatchResult {
    this.assertAllVisible(ids, scope);
    return this.batch(ids, ackOf, 'ack_ts');
  }

  batchClear(ids: readonly string[], scope: DeviceScope = null): AlarmBatchResult {
    this.assertAllVisible(ids, scope);
    return this.batch(ids, clearOf, 'clear_ts');
  }

  /** A batch naming an alarm outside the caller's scope changes nothing (unknown ids are the batch's own 404). */
  private assertAllVisible(ids: readonly string[], scope: DeviceScope): void {
    if (scope === null) return;
    for (const id of ids) {
      const alarm = this.rows.findById(id);
      if (alarm && !inScope(scope, alarm.organizationId ?? null)) throw notFound();
    }
  }

  /** Counts of an organization and every organization below it. */
  profile(organizationId: string, scope: DeviceScope = null): AlarmProfile {
    if (!this.deps.organizations.exists(organizationId)) throw notFound();
    const organizationIds = this.deps.organizations.subtreeIds(organizationId);
    return this.profileOf({ organizationIds: organizationsWithin(scope, organizationIds) });
  }

  /** Counts of every alarm (the workbench card). */
  profileOf(filter: AlarmFilter): AlarmProfile {
    const byStatus = Object.fromEntries(alarmStatuses.map((s) => [s, 0])) as Record<AlarmStatus, number>;
    const bySeverity = Object.fromEntries(alarmSeverities.map((s) => [s, 0])) as Record<AlarmSeverity, number>;
    let total = 0;
    for (const { status, severity, n } of this.rows.countsBy(filter)) {
      total += n;
      byStatus[status] += n;
      if (status === 'ACTIVE_UNACK' || status === 'ACTIVE_ACK') bySeverity[severity] += n;
    }
    return {
      total,
      active: byStatus.ACTIVE_UNACK + byStatus.ACTIVE_ACK,
      unacknowledged: byStatus.ACTIVE_UNACK + byStatus.CLEARED_UNACK,
      byStatus,
      bySeverity,
    };
  }

  private batch(ids: readonly string[], next: typeof ackOf, column: 'ack_ts' | 'clear_ts'): AlarmBatchResult {
    const existing = this.rows.existing(ids);
    const unknown = ids.flatMap((id, i) => (existing.has(id) ? [] : [`alarmIds.${i}`]));
    if (unknown.length) {
      const message = translate('en_US', 'error.notFound');
      throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound', {}, {
        details: unknown.map((field) => ({ field: `body.${field}`, key: 'error.notFound', message })),
      });
    }
    let updated = 0;
    for (const id of new Set(ids)) {
      const alarm = this.get(id);
      if (next[alarm.status]) {
        this.move(alarm, next, column);
        updated++;
      }
    }
    return { updated };
  }

  private move(alarm: Alarm, next: typeof ackOf, column: 'ack_ts' | 'clear_ts'): Alarm {
    const status = next[alarm.status];
    if (!status) return alarm;
    this.rows.setStatus(alarm.id, status, column, Date.now());
    const changed = this.get(alarm.id);
    this.deps.bus.emit('alarm.changed', { alarm: changed, previous: alarm });
    return changed;
  }
}
