/** Every namespace of this language (types and parity only; chunks load per namespace, see i18n.ts). */
import auth from './auth.json';
import common from './common.json';
import errors from './errors.json';
import exception from './exception.json';
import guide from './guide.json';
import http from './http.json';
import layout from './layout.json';
import license from './license.json';
import menu from './menu.json';
import profile from './profile.json';
import settings from './settings.json';

const resources = { auth, common, errors, exception, guide, http, layout, license, menu, profile, settings };
export default resources;
