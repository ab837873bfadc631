/** Runs a host tool for an applier; a refusal becomes a TimeApplyError carrying the tool's own message. */
import { execFile } from 'node:child_process';
import { TimeApplyError } from './time-applier.ts';

const TIMEOUT_MS = 30_000;

export function hostCommand(file: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: TIMEOUT_MS, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const said = (stderr || err.message).trim().split('\n').slice(-3).join(' ');
      reject(new TimeApplyError(`${file} ${args.join(' ')}: ${said}`));
    });
  });
}
