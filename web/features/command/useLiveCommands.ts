/**
 * A device's command rows with the copies pushed live since the page loaded (whichever is later),
 * and polling while a command waits for its outcome when live updates are down.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { finalCommandStatuses, type Command } from '../../../server/contract/command.ts';
import { laterCommand, mergeCommands, useCommandUpdates } from '../../lib/use-live.ts';

/** Without live updates: how often the list reloads while a command waits for its outcome. */
const PENDING_POLL_MS = 2_000;

export function useLiveCommands(deviceId: string, listItems: Command[], refresh: () => Promise<void>): Command[] {
  // Records pushed live since the page loaded, by id; a row shows whichever copy is later.
  const [live, setLive] = useState<Record<string, Command>>({});
  const shownIds = useRef(new Set<string>());
  shownIds.current = new Set(listItems.map((c) => c.id));
  const liveError = useCommandUpdates(deviceId, {
    onChange: (changed) => {
      setLive((current) => mergeCommands(current, changed));
      if (changed.some((c) => !shownIds.current.has(c.id))) void refresh();
    },
    onResumed: () => void refresh(),
  });
  const items = useMemo(() => listItems.map((c) => (live[c.id] ? laterCommand(live[c.id]!, c) : c)), [listItems, live]);
  const pending = items.some((c) => !finalCommandStatuses.includes(c.status));

  // Outcomes arrive on the server's own time: without live updates, poll while something is under way.
  useEffect(() => {
    if (!pending || !liveError) return undefined;
    const timer = setInterval(() => void refresh(), PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [pending, liveError, refresh]);

  return items;
}
