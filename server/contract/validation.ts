/**
 * Input validation rules as patterns and limits, declared once. Server schemas embed
 * them; web forms use the same values for inline checks, so both sides refuse the same input.
 */

/** Password: 8–30 characters with an upper- and a lower-case letter, a digit and a special character. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 30;
export const PASSWORD_PATTERN =
  '^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[^A-Za-z0-9\\s])[^\\s]{8,30}$';

/** Mainland mobile number: 11 digits, starts with 1, second digit 3–9. */
export const PHONE_PATTERN = '^1[3-9]\\d{9}$';

/** Email: a plain address of at most 32 characters. */
export const EMAIL_MAX = 32;
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';

export const REAL_NAME_MAX = 32;

/** Device or business name: Chinese characters, letters, digits and _ - @ ( ), at most 30. */
export const NAME_MAX = 30;
export const NAME_PATTERN = '^[\\u4e00-\\u9fa5A-Za-z0-9_\\-@()]+$';
/** Device alias or label: at most 36 characters of VISIBLE_TEXT_PATTERN. */
export const ALIAS_MAX = 36;

/**
 * Free text people read as a name (device alias and label, batch alias prefix, real name, platform
 * name): any script, spaces and signs, but no control characters (C0 including tab and line feed,
 * DEL, C1) and no bidirectional embedding, override or isolate controls (U+202A–U+202E,
 * U+2066–U+2069): they are invisible, and can make one name display as another ("evil\u202Etxt.exe"
 * shows as "evilexe.txt") or cut it short. Names of NAME_PATTERN exclude them already.
 */
export const VISIBLE_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069]*$';

/** Longest name a device reports (ThingsBoard's device name column is 255 characters). */
export const REPORTED_NAME_MAX = 255;
/**
 * A name a device reports (a gateway's sub-device and its `type`, a provisioned device): any
 * printable characters (VISIBLE_TEXT_PATTERN), not only white space. Field names carry dots,
 * colons, slashes and spaces ("Device A", "line 1/plc:3.temp"); the console shows them as they are
 * and URLs carry ids, never names. NAME_PATTERN stays the rule for names a person types.
 */
export const REPORTED_NAME_PATTERN = `^(?=[\\s\\S]*\\S)${VISIBLE_TEXT_PATTERN.slice(1)}`;

/** Address code of a TCP/Modbus sub-device: two hex digits, 00 to FF (stored upper case). */
export const ADDRESS_CODE_PATTERN = '^[0-9A-Fa-f]{2}$';

/** Bounds of a 32-bit signed integer: thing-model INT and enum values, organization sort. */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/** Organization sort: an int32 integer. */
export const SORT_MIN = INT32_MIN;
export const SORT_MAX = INT32_MAX;

/** Free-text descriptions and postal addresses: our own limit, a generous single line. */
export const DESCRIPTION_MAX = 255;

/** Username of a console account: our own rule (ThingsBoard accepts emails or plain names). */
export const USERNAME_PATTERN = '^[A-Za-z0-9_.@\\-]{3,32}$';

/** Upload ceiling for every upload: 5 MB. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;
export const LICENSE_EXTENSION = 'lic';

/**
 * IPv4 dotted quad, and a host name of 3–255 characters. A host name is
 * never all digits and dots, so `300.1.1.1` is a bad IPv4 address, not a host name.
 */
export const IPV4_PATTERN =
  '^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$';
export const HOST_PATTERN =
  '^(?=.{3,255}$)(?![\\d.]+$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$';
