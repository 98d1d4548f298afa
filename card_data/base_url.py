"""Where the cards' QR codes point: ``--base-url``, else ``PRINTKIT_BASE_URL``, else ``printkit.toml``.

Shared by printkit (the URLs it prints) and the companion (the static site it exports and
the canonical links it serves), so both halves read the same setting the same way.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_BASE_URL = "http://localhost:5000"
ENV_BASE_URL = "PRINTKIT_BASE_URL"
CONFIG_FILE = "printkit.toml"


class ConfigError(Exception):
    """A bad base URL or config file; the message names the source."""


@dataclass(frozen=True)
class BaseUrl:
    """The resolved base URL and where it came from (``"--base-url"``, the env var, a file or default)."""

    url: str
    source: str

    @property
    def is_loopback(self) -> bool:
        """True for localhost/127.x/::1: a phone scanning the card cannot reach this computer there."""
        host = urlsplit(self.url).hostname or ""
        if host == "localhost" or host.endswith(".localhost"):
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False


def _check(url: str, source: str) -> BaseUrl:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{source}: base URL must look like http://HOST[:PORT][/PATH], got {url!r}")
    if parts.query or parts.fragment:
        raise ConfigError(f"{source}: base URL must not have a query or fragment: {url!r}")
    return BaseUrl(url.rstrip("/"), source)


def resolve_base_url(cli_value: str | None, cwd: Path | None = None) -> BaseUrl:
    """The base URL for QR codes, by precedence: ``cli_value``, ``$PRINTKIT_BASE_URL``,
    ``base_url`` in ``./printkit.toml`` (under ``[printkit]``), then ``http://localhost:5000``.

    Raises :class:`ConfigError` naming the source for a malformed URL or config file.
    """
    if cli_value:
        return _check(cli_value, "--base-url")
    env = os.environ.get(ENV_BASE_URL)
    if env:
        return _check(env, ENV_BASE_URL)
    path = (cwd or Path.cwd()) / CONFIG_FILE
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        value = data.get("printkit", {}).get("base_url")
        if value is not None:
            if not isinstance(value, str):
                raise ConfigError(f"{path}: printkit.base_url must be a string")
            return _check(value, str(path))
    return BaseUrl(DEFAULT_BASE_URL, "default")
