/**
 * The video center: camera and NVR channels, their probes and thumbnails, and live previews remuxed
 * by ffmpeg into fragmented MP4 over a websocket (server/contract/video.ts).
 */
import { defineModule } from '../../module.ts';
import { VIDEO_IDLE_STOP_MS } from '../../contract/video.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { FfmpegTools, findTool } from './ffmpeg-tools.ts';
import { LiveStreams } from './live-streams.ts';
import { VideoLiveAuth } from './video-live-auth.ts';
import { VideoRepository } from './video-repository.ts';
import { registerVideoRoutes } from './video-routes.ts';
import { VideoService } from './video-service.ts';
import m0080 from './migrations/0080-video-channel.sql';
import m0081 from './migrations/0081-video-channel-sync.sql';

/** A camera answers a SOAP call in well under a second; five covers a loaded NVR, and a dead host fails the sync in that time. */
const ONVIF_TIMEOUT_MS = 5_000;

declare module '../../module.ts' {
  interface Services {
    video: VideoService;
    videoLiveAuth: VideoLiveAuth;
  }
  interface Tuning {
    /** How long a live stream outlives its last viewer (VIDEO_IDLE_STOP_MS); tests shorten it. */
    videoIdleStopMs?: number;
    /** Per ONVIF request of a channel sync (ONVIF_TIMEOUT_MS); tests shorten it. */
    onvifTimeoutMs?: number;
  }
}

export const videoModule = defineModule({
  name: 'video',
  needs: ['organizations', 'devices', 'sessions', 'license', 'deviceScopes'],
  migrations: [
    { name: '0080-video-channel', sql: m0080 },
    { name: '0081-video-channel-sync', sql: m0081 },
  ],
  apiTags: { video: 'Video channels: address rules, write-only passwords, ONVIF sync, probes, thumbnails; live preview on a websocket' },
  build: ({ core, log, tuning, services: { organizations, devices, sessions, license, deviceScopes } }) => {
    const { ffmpegDir, videoMaxStreams } = core.config;
    const tools = new FfmpegTools({ ffmpeg: findTool('ffmpeg', ffmpegDir), ffprobe: findTool('ffprobe', ffmpegDir) });
    if (!tools.available) log.warn({ ffmpegDir }, 'ffmpeg or ffprobe not found: video probes and previews are off');
    const streams = new LiveStreams({ tools, maxStreams: videoMaxStreams, idleStopMs: tuning.videoIdleStopMs ?? VIDEO_IDLE_STOP_MS, log });
    return {
      video: new VideoService({
        channels: new VideoRepository(core.db),
        box: new SecretBox(core.secrets.jwtKey, 'video-password'),
        tools,
        streams,
        maxStreams: videoMaxStreams,
        onvifTimeoutMs: tuning.onvifTimeoutMs ?? ONVIF_TIMEOUT_MS,
        organizationExists: (id) => organizations.exists(id),
        deviceExists: (id) => devices.within(null).exists(id),
      }),
      videoLiveAuth: new VideoLiveAuth({
        bus: core.bus,
        verifyAccessToken: (token) => sessions.verifyAccessToken(token),
        licenseStatus: () => license.status(),
        scopeOf: (user) => deviceScopes.scopeOf(user),
      }),
    };
  },
  routes: registerVideoRoutes,
  close: ({ video }) => video.close(),
});
