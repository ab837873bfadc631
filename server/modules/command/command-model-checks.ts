/**
 * Commands' view of the thing models: the thing-model service checks a SERVICE call's inputs and an
 * ATTRIBUTE command's writable properties against the product's published model.
 */
import type { ThingModelService } from '../thing-model/thing-model-service.ts';
import type { CommandModelChecks } from './command-content.ts';

export function commandModelChecks(models: Pick<ThingModelService, 'checkServiceCall' | 'checkPropertyWrite'>): CommandModelChecks {
  return {
    checkService: (deviceProfileId, identifier, params) => models.checkServiceCall(deviceProfileId, identifier, params),
    checkProperty: (deviceProfileId, key, value) => models.checkPropertyWrite(deviceProfileId, key, value),
  };
}
