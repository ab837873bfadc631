/**
 * Commands' view of the thing models: the product's published model, checked with the thing-model
 * module's pure checks (a SERVICE call's inputs, an ATTRIBUTE command's writable properties).
 */
import type { ThingModelService } from '../thing-model/thing-model-service.ts';
import { checkPropertyWrite, checkServiceInput } from '../thing-model/thing-model-check.ts';
import type { CommandModelChecks, ModelVerdict } from './command-content.ts';

function verdict(result: { ok: true } | { ok: false; reason: string }): ModelVerdict {
  return result.ok ? { ok: true } : { ok: false, reason: result.reason };
}

export function commandModelChecks(models: Pick<ThingModelService, 'getPublished'>): CommandModelChecks {
  return {
    checkService: (deviceProfileId, identifier, params) => {
      const model = models.getPublished(deviceProfileId);
      return model && verdict(checkServiceInput(model, identifier, params));
    },
    checkProperty: (deviceProfileId, key, value) => {
      const model = models.getPublished(deviceProfileId);
      return model && verdict(checkPropertyWrite(model, key, value));
    },
  };
}
