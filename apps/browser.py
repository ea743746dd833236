"""The operating system's Chromium as Playwright launches it, for the screenshots
(`apps/screenshots.py`) and the browser tests (`tests/common/test_browser.py`): one definition of
where it is and of its flags. Nothing here downloads a browser."""

from __future__ import annotations

import shutil

# headless, no sandbox (containers), and nothing that reaches the network on its own
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    """The path of the installed Chromium (`chromium` or `chromium-browser`), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")
