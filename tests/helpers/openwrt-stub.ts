/**
 * `uci` and `ubus` faked at the process boundary for the openwrt applier: shell scripts on PATH
 * that record every call and keep UCI options in a file in `uci show` form (show, set, add_list,
 * delete, batch), so what the gateway wrote is what it reads back. `failOn('commit')` makes the
 * next `uci commit` fail as a full flash would, with its own error text (once: the rollback after
 * it then succeeds). Shell, not Python: a stub is started dozens of times per test.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { parseUciShow } from '../../server/modules/network/openwrt-applier.ts';
import { tempDir } from './app.ts';

const uciScript = (dir: string): string => `#!/bin/sh
d='${dir}'
[ "$1" = -q ] && shift
printf '%s\\t' uci "$@" >> "$d/calls"; echo >> "$d/calls"
if [ -f "$d/fail" ] && [ "$1" = "$(cat "$d/fail")" ]; then
  rm -f "$d/fail"; echo 'uci: I/O error (stub: no space left on device)' >&2; exit 1
fi
# Fixed strings: a section like system.@system[0] is no regular expression.
drop() { grep -v -F "$1=" "$d/state" > "$d/state.tmp"; mv "$d/state.tmp" "$d/state"; }
one() {
  op=$1; rest=$2; key=\${rest%%=*}
  case "$op" in
    show) grep "^$rest\\." "$d/state" ;;
    get) grep -F "$rest=" "$d/state" | head -n 1 | sed "s/^[^=]*=//; s/^'//; s/'$//" ;;
    set) drop "$key"; echo "$rest" >> "$d/state" ;;
    add_list)
      old=$(grep "^$key=" "$d/state" | sed "s/^[^=]*=//")
      drop "$key"
      if [ -n "$old" ]; then echo "$key=$old \${rest#*=}" >> "$d/state"; else echo "$rest" >> "$d/state"; fi ;;
    delete) drop "$key" ;;
  esac
}
if [ "$1" = batch ]; then
  cat > "$d/batch"; cat "$d/batch" >> "$d/batches"
  while IFS= read -r line; do [ -n "$line" ] && one "\${line%% *}" "\${line#* }"; done < "$d/batch"
else
  one "$1" "$2"
fi
exit 0
`;

const ubusScript = (dir: string): string => `#!/bin/sh
printf '%s\\t' ubus "$@" >> '${dir}/calls'; echo >> '${dir}/calls'
`;

export interface OpenWrtStub {
  /** Every call, in order, as argument lists starting with the command. */
  calls(): string[][];
  /** Every line `uci batch` received, in order. */
  batches(): string;
  /** The UCI options as they stand. */
  state(): Map<string, string>;
  /** Make the next call of this `uci` operation fail (null: none). */
  failOn(op: string | null): void;
}

let savedPath: string | undefined;
afterEach(() => {
  if (savedPath !== undefined) process.env.PATH = savedPath;
  savedPath = undefined;
});

/** Installs the stubs first on this process's PATH (restored after the test) with these UCI options. */
export function installOpenWrtStub(options: Record<string, string>): OpenWrtStub {
  const dir = tempDir('edge-openwrt-');
  writeFileSync(join(dir, 'state'), Object.entries(options).map(([k, v]) => `${k}='${v}'\n`).join(''));
  for (const [name, text] of [['uci', uciScript(dir)], ['ubus', ubusScript(dir)]] as const) {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o755);
  }
  savedPath ??= process.env.PATH;
  process.env.PATH = `${dir}:${process.env.PATH ?? ''}`;
  const text = (name: string): string => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  return {
    calls: () => text('calls').split('\n').filter(Boolean).map((l) => l.replace(/\t$/, '').split('\t')),
    batches: () => text('batches'),
    state: () => parseUciShow(text('state')),
    failOn: (op) => (op ? writeFileSync(join(dir, 'fail'), op) : rmSync(join(dir, 'fail'), { force: true })),
  };
}
