"""A real RTSP camera for the video tests: GStreamer's RTSP server on loopback with digest auth,
serving a live H.264 test pattern at the paths of each manufacturer's address rule
(server/contract/video-address.ts). Usage: rtsp-camera.py PORT USER PASSWORD. Prints "READY <port>"
once it listens; stops on SIGTERM or when its stdin closes (so a crashed test leaks no camera)."""
import signal
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtsp, GstRtspServer  # noqa: E402

# 640x360 at 15 fps keeps three encoders cheap on a loaded machine; a keyframe every 30 frames (2 s)
# bounds how long a late viewer waits for its first fragment.
# The bench asks for 1920x1080 (optional 4th and 5th arguments: WIDTHxHEIGHT and fps), still a
# keyframe every two seconds.
def pipeline(width: int, height: int, fps: int) -> str:
    return (
        f"( videotestsrc is-live=true pattern=ball ! video/x-raw,width={width},height={height},framerate={fps}/1 "
        f"! x264enc tune=zerolatency speed-preset=ultrafast key-int-max={2 * fps} ! rtph264pay name=pay0 pt=96 )"
    )

# Channel 1 of every rule, main/sub/third stream (tests use channel 1 and the main stream mostly).
PATHS = (
    [f"/Streaming/Channels/10{s}" for s in (1, 2, 3)]
    + [f"/unicast/c1/s{s}/live" for s in (0, 1, 2)]
    + ["/cam/realmonitor"]  # dahua: channel and subtype travel in the query, which the server ignores
    + ["/live"]
)


def main() -> None:
    port, user, password = sys.argv[1], sys.argv[2], sys.argv[3]
    width, height = (int(n) for n in (sys.argv[4] if len(sys.argv) > 4 else "640x360").split("x"))
    fps = int(sys.argv[5]) if len(sys.argv) > 5 else 15
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)

    auth = GstRtspServer.RTSPAuth()
    auth.set_supported_methods(GstRtsp.RTSPAuthMethod.DIGEST)
    token = GstRtspServer.RTSPToken()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, "viewer")
    auth.add_digest(user, password, token)
    server.set_auth(auth)

    mounts = server.get_mount_points()
    for path in PATHS:
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch(pipeline(width, height, fps))
        factory.set_shared(True)
        permissions = GstRtspServer.RTSPPermissions()
        permissions.add_permission_for_role("viewer", "media.factory.access", True)
        permissions.add_permission_for_role("viewer", "media.factory.construct", True)
        factory.set_permissions(permissions)
        mounts.add_factory(path, factory)

    if server.attach(None) == 0:
        print("FAILED to listen", flush=True)
        sys.exit(1)
    loop = GLib.MainLoop()
    signal.signal(signal.SIGTERM, lambda *_: loop.quit())

    def watch_stdin() -> None:
        sys.stdin.read()
        GLib.idle_add(loop.quit)

    threading.Thread(target=watch_stdin, daemon=True).start()
    print(f"READY {server.get_bound_port()}", flush=True)
    loop.run()


if __name__ == "__main__":
    main()
