/** Browser fullscreen state and a toggle; the state follows Esc/F11 exits too. */
import { useCallback, useEffect, useState } from 'react';

export function isFullscreen(): boolean {
  return Boolean(document.fullscreenElement);
}

export async function toggleFullscreen(): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  } catch {
    // Refused by the browser (no user gesture, iframe without permission): nothing to undo.
  }
}

export function useFullscreen(): [boolean, () => void] {
  const [full, setFull] = useState(isFullscreen);
  useEffect(() => {
    const onChange = (): void => setFull(isFullscreen());
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = useCallback(() => void toggleFullscreen(), []);
  return [full, toggle];
}
