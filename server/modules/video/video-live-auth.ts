/**
 * Who may open a channel's live websocket, checked as /api/ws checks its sockets: a licence, a
 * valid token without a pending password change, then the user's organization scope. A logout or
 * a password change (`user.sessionsRevoked`) closes the user's video sockets at once.
 */
import type { WebSocket } from 'ws';
import type { ErrorKey } from '../../contract/errors.ts';
import type { LicenseStatus } from '../../contract/license.ts';
import { authenticateSocket } from '../../lib/socket-auth.ts';
import { VIDEO_CLOSE_AUTH } from '../../contract/video.ts';
import type { AuthUser } from '../../core.ts';
import type { DeviceScope } from '../../lib/device-scope.ts';
import type { EventBus } from '../../lib/event-bus.ts';

export interface VideoLiveAuthDeps {
  bus: EventBus;
  verifyAccessToken(token: string): AuthUser | null | 'expired';
  licenseStatus(): LicenseStatus;
  scopeOf(user: AuthUser): DeviceScope;
}

export class VideoLiveAuth {
  private readonly byUser = new Map<string, Set<WebSocket>>();

  constructor(private readonly deps: VideoLiveAuthDeps) {
    deps.bus.on('user.sessionsRevoked', ({ userId }) => {
      for (const socket of this.byUser.get(userId) ?? []) socket.close(VIDEO_CLOSE_AUTH, 'session revoked');
    });
  }

  authenticate(token: string): AuthUser | ErrorKey {
    return token ? authenticateSocket(this.deps, token) : 'error.auth.required';
  }

  scopeOf(user: AuthUser): DeviceScope {
    return this.deps.scopeOf(user);
  }

  track(userId: string, socket: WebSocket): void {
    const mine = this.byUser.get(userId) ?? new Set<WebSocket>();
    mine.add(socket);
    this.byUser.set(userId, mine);
    socket.once('close', () => {
      mine.delete(socket);
      if (mine.size === 0 && this.byUser.get(userId) === mine) this.byUser.delete(userId);
    });
  }
}
