/**
 * The device rules of server/contract/device.ts beyond what its schema checks (references, the
 * product's device type, gateway rules, both coordinates or neither, unique name). One function for
 * single create and edit, CSV import rows and batch generation, so they refuse the same things.
 * The rules a form checks as well live in server/contract/rules/device.ts.
 */
import type { DeviceBody } from '../../contract/device.ts';
import type { DeviceType } from '../../contract/product.ts';
import { locationViolations, normalizeAddressCode } from '../../contract/rules/device.ts';
import { normalizeRegistration, registrationHex, registrationProblem } from '../../contract/rules/tcp-registration.ts';
import type { ModbusTcpTarget, Registration } from '../../contract/tcp-device.ts';
import type { FieldKeys, Violation } from '../../lib/field-errors.ts';
import { optionalText } from '../../lib/optional-text.ts';

/** Schema failures of device fields, by field (bodies and import rows alike). */
export const deviceFieldKeys: FieldKeys = {
  name: 'error.field.name',
  alias: 'error.field.alias',
  label: 'error.field.label',
  addressCode: 'error.field.addressCode',
  longitude: 'error.field.longitude',
  latitude: 'error.field.latitude',
  address: 'error.field.address',
  description: 'error.field.description',
};

/** A device body normalized for storage: free text trimmed (empty is unset), address code upper case. */
export interface DeviceDraft {
  name: string;
  alias: string | null;
  deviceType: DeviceType;
  deviceProfileId: string;
  organizationId: string | null;
  gatewayId: string | null;
  addressCode: string | null;
  label: string | null;
  longitude: number | null;
  latitude: number | null;
  address: string | null;
  isPublic: boolean;
  description: string | null;
  /** Normalized (server/contract/rules/tcp-registration.ts); undefined: it broke its format. */
  registration: Registration | null;
  modbusTcp: ModbusTcpTarget | null;
}

export function draftOf(body: DeviceBody): DeviceDraft {
  return {
    name: body.name,
    alias: optionalText(body.alias),
    deviceType: body.deviceType,
    deviceProfileId: body.deviceProfileId,
    organizationId: body.organizationId ?? null,
    gatewayId: body.gatewayId ?? null,
    addressCode: normalizeAddressCode(body.addressCode),
    label: optionalText(body.label),
    longitude: body.longitude ?? null,
    latitude: body.latitude ?? null,
    address: optionalText(body.address),
    isPublic: body.isPublic ?? false,
    description: optionalText(body.description),
    registration: body.registration ? (normalizeRegistration(body.registration) ?? body.registration) : null,
    modbusTcp: body.modbusTcp ?? null,
  };
}

/** What the rules look up; import passes a memoizing version. */
export interface DeviceRefs {
  productType(productId: string): DeviceType | undefined;
  organizationExists(organizationId: string): boolean;
  deviceType(deviceId: string): DeviceType | undefined;
  /** The id of the device called `name`, if any. */
  nameOwner(name: string): string | undefined;
  /** The id of the device whose own registration string is these bytes (hex), if any. */
  registrationOwner(hex: string): string | undefined;
}

/** Every rule `draft` breaks; `selfId` is the device being edited (undefined when creating). */
export function deviceViolations(draft: DeviceDraft, selfId: string | undefined, refs: DeviceRefs): Violation[] {
  const found: Violation[] = [];
  const owner = refs.nameOwner(draft.name);
  if (owner !== undefined && owner !== selfId) found.push({ field: 'name', key: 'error.device.nameTaken' });

  const productType = refs.productType(draft.deviceProfileId);
  if (productType === undefined) found.push({ field: 'deviceProfileId', key: 'error.device.productNotFound' });
  // A directly connected product's device may be a GATEWAY (provisioned with ThingsBoard's `gateway: true`).
  else if (productType !== draft.deviceType && !(productType === 'DIRECT_CONNECTION' && draft.deviceType === 'GATEWAY')) {
    found.push({ field: 'deviceType', key: 'error.device.typeMismatch', params: { deviceType: productType } });
  }

  if (draft.organizationId !== null && !refs.organizationExists(draft.organizationId)) {
    found.push({ field: 'organizationId', key: 'error.device.organizationNotFound' });
  }

  if (draft.gatewayId !== null) {
    const gatewayType = draft.gatewayId === selfId ? undefined : refs.deviceType(draft.gatewayId);
    if (draft.deviceType !== 'SENSOR') found.push({ field: 'gatewayId', key: 'error.device.gatewayNotAllowed' });
    else if (draft.gatewayId === selfId) found.push({ field: 'gatewayId', key: 'error.device.gatewayNotGateway' });
    else if (gatewayType === undefined) found.push({ field: 'gatewayId', key: 'error.device.gatewayNotFound' });
    else if (gatewayType !== 'GATEWAY') found.push({ field: 'gatewayId', key: 'error.device.gatewayNotGateway' });
  }

  if (draft.registration) {
    if (registrationProblem(draft.registration)) found.push({ field: 'registration', key: 'error.device.registration' });
    else {
      const holder = refs.registrationOwner(registrationHex(draft.registration));
      if (holder !== undefined && holder !== selfId) found.push({ field: 'registration', key: 'error.device.registrationTaken' });
    }
  }

  found.push(...locationViolations(draft.longitude, draft.latitude));
  return found;
}
