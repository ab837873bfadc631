/** Every namespace of this language (types and parity only; chunks load per namespace, see i18n.ts). */
import auth from './auth.json';
import category from './category.json';
import command from './command.json';
import common from './common.json';
import credentials from './credentials.json';
import device from './device.json';
import deviceImport from './deviceImport.json';
import errors from './errors.json';
import event from './event.json';
import exception from './exception.json';
import guide from './guide.json';
import http from './http.json';
import layout from './layout.json';
import license from './license.json';
import menu from './menu.json';
import organization from './organization.json';
import product from './product.json';
import profile from './profile.json';
import settings from './settings.json';
import table from './table.json';
import telemetry from './telemetry.json';
import thingModel from './thingModel.json';
import workbench from './workbench.json';

const resources = { auth, category, command, common, credentials, device, deviceImport, errors, event, exception, guide, http, layout, license, menu, organization, product, profile, settings, table, telemetry, thingModel, workbench };
export default resources;
