/**
 * Batch generation (server/contract/device-import.ts): devices of one product with generated names
 * and access tokens, and the CSV a factory flashes them from. A batch is remembered by the ids of
 * its devices, so the CSV shows the current name, alias and token (and skips deleted devices).
 */
import type { BatchBody, BatchItem, BatchResult } from '../../contract/device-import.ts';
import { BATCH_TTL_MS } from '../../contract/device-import.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { NAME_MAX } from '../../contract/validation.ts';
import { AppError } from '../../lib/app-error.ts';
import { assertNoViolations, violationError } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { ProductService } from '../product/product-service.ts';
import type { CredentialsRepository } from './credentials-repository.ts';
import type { CredentialsService } from './credentials-service.ts';
import { toCsv } from '../../lib/csv.ts';
import { ExpiringStore } from './expiring-store.ts';
import type { DeviceRepository } from './device-repository.ts';
import { deviceViolations, type DeviceDraft } from './device-rules.ts';
import type { DeviceService, NewDevice } from './device-service.ts';
import { randomText, UPPER_ALPHANUMERIC } from '../../lib/random-text.ts';

/** Batches remembered at once (each is at most 1000 ids). */
const MAX_BATCHES = 20;
/** Random part of a generated name: 36^8 values, so a batch of 1000 rarely has to redraw. */
const SUFFIX_LENGTH = 8;

export interface DeviceBatchServiceDeps {
  devices: DeviceService;
  deviceRows: DeviceRepository;
  credentials: CredentialsService;
  credentialRows: CredentialsRepository;
  products: Pick<ProductService, 'find'>;
  now?: () => number;
}

export class DeviceBatchService {
  private readonly batches: ExpiringStore<string[]>;

  constructor(private readonly deps: DeviceBatchServiceDeps) {
    this.batches = new ExpiringStore(BATCH_TTL_MS, MAX_BATCHES, deps.now);
  }

  generate(body: BatchBody): BatchResult {
    const { devices, credentials, products } = this.deps;
    const product = products.find(body.deviceProfileId);
    if (!product) throw violationError([{ field: 'deviceProfileId', key: 'error.device.productNotFound' }]);
    const template: DeviceDraft = {
      name: '',
      alias: null,
      deviceType: product.deviceType,
      deviceProfileId: product.id,
      organizationId: body.organizationId ?? null,
      gatewayId: body.gatewayId ?? null,
      addressCode: null,
      label: null,
      longitude: null,
      latitude: null,
      address: null,
      isPublic: false,
      description: null,
      registration: null,
      modbusTcp: null,
    };
    const refs = devices.refs();
    assertNoViolations(deviceViolations(template, undefined, { ...refs, nameOwner: () => undefined }));

    // The product name obeys the name rule, so prefix + '_' + [A-Z0-9] does too.
    const prefix = product.name.slice(0, NAME_MAX - 1 - SUFFIX_LENGTH);
    // Not trimmed: "Room " + n gives "Room 1", as the user typed it.
    const aliasPrefix = body.aliasPrefix || null;
    // Names are drawn and inserted without a pause (no await), so no other request can take one
    // in between; createMany inserts in one transaction and announces the devices after it.
    const items = ((): BatchItem[] => {
      const names = new Set<string>();
      const tokens = new Set<string>();
      const batch: NewDevice[] = [];
      for (let n = 1; n <= body.count; n++) {
        let name: string;
        do name = `${prefix}_${randomText(UPPER_ALPHANUMERIC, SUFFIX_LENGTH)}`;
        while (names.has(name) || refs.nameOwner(name) !== undefined);
        let token: string;
        do token = credentials.generateToken();
        while (tokens.has(token));
        names.add(name);
        tokens.add(token);
        batch.push({ draft: { ...template, name, alias: aliasPrefix === null ? null : `${aliasPrefix}${n}` }, token });
      }
      const ids = devices.createMany(batch);
      return batch.map((item, i) => ({ id: ids[i]!, name: item.draft.name, alias: item.draft.alias, token: item.token! }));
    })();

    const batchId = newId();
    this.batches.set(batchId, items.map((i) => i.id));
    return { batchId, items };
  }

  /** `name,alias,token` of the batch's devices as they are now. */
  csv(batchId: string): string {
    const deviceIds = this.batches.get(batchId);
    if (!deviceIds) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.batch.expired');
    const rows: string[][] = [];
    for (const id of deviceIds) {
      const device = this.deps.deviceRows.findById(id);
      if (!device) continue;
      const credentials = this.deps.credentialRows.findByDevice(id);
      const token = credentials?.credentialsType === 'ACCESS_TOKEN' ? credentials.credentialsId : '';
      rows.push([device.name, device.alias ?? '', token]);
    }
    return toCsv(['name', 'alias', 'token'], rows);
  }
}
