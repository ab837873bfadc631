/**
 * `npm start`: a real first boot of the console on the embedded default (data in ./.data).
 * No licence key is built in: a development key pair is made in ./.keys (git-ignored) if missing
 * and its public half trusted, so `npm run license -- issue …` with the private half makes a
 * licence this console accepts. Extra arguments go to the server (e.g. `npm start -- --port 9090`).
 */
import { join } from 'node:path';
import { root } from './build.ts';
import { ensureDevKeys } from './license.ts';
import { runServer } from './lib/run-server.ts';

const keys = ensureDevKeys(join(root, '.keys'));
process.stdout.write(
  [
    `licence key pair: ${keys.publicKeyFile}${keys.created ? ' (created now)' : ''}`,
    'issue a licence for the activation wizard with:',
    `  npm run license -- issue --private-key .keys/license-private.pem --device '*' --days 365 --out edge.lic`,
    '',
  ].join('\n'),
);
runServer(['--license-public-key', keys.publicKeyFile, ...process.argv.slice(2)]);
